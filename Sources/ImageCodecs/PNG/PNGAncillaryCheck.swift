/// The structural rules of the PNG ancillary chunks (PNG 3rd ed. §11.3), checked without
/// inflating anything, so a broken chunk is named in a warning and dropped instead of
/// failing the image (``PNGMetadata``).
///
/// iCCP and eXIf are checked where they are read (their payloads need inflating or parsing);
/// the text of zTXt and iTXt chunks is inflated only for the keywords that can carry an
/// orientation. Chunks this list does not name are not checked.
enum PNGAncillaryCheck {
    /// Why `chunk` breaks its chunk's rules, or `nil` when it holds or is not checked here.
    static func defect(of chunk: PNGChunk, header: PNGImageHeader) -> String? {
        let d = chunk.data
        func byte(_ i: Int) -> Int { Int(d[d.startIndex + i]) }
        func length(_ expected: Int) -> String? {
            d.count == expected ? nil : "it is \(d.count) bytes, §11.3 requires \(expected)"
        }
        switch chunk.type {
        case "gAMA":
            if let wrong = length(4) { return wrong }
            return PNGChunkList.u32(d, 0) == 0 ? "its gamma is 0" : nil
        case "cHRM":
            return length(32)
        case "sRGB":
            if let wrong = length(1) { return wrong }
            return byte(0) > 3 ? "rendering intent \(byte(0)) is not 0…3" : nil
        case "pHYs":
            if let wrong = length(9) { return wrong }
            return byte(8) > 1 ? "unit specifier \(byte(8)) is not 0 or 1" : nil
        case "tIME":
            if let wrong = length(7) { return wrong }
            let (month, day, hour, minute, second) = (byte(2), byte(3), byte(4), byte(5), byte(6))
            guard (1...12).contains(month), (1...31).contains(day), hour <= 23, minute <= 59, second <= 60 else {
                return "date \(month)/\(day) \(hour):\(minute):\(second) is out of range"
            }
            return nil
        case "sBIT":
            let samples: Int
            switch header.colorType {
            case .gray: samples = 1
            case .grayAlpha: samples = 2
            case .rgb, .palette: samples = 3
            case .rgba: samples = 4
            }
            if let wrong = length(samples) { return wrong }
            let depth = header.colorType == .palette ? 8 : header.bitDepth
            for i in 0..<samples where !(1...depth).contains(byte(i)) {
                return "significant bits \(byte(i)) are not 1…\(depth)"
            }
            return nil
        case "bKGD":
            switch header.colorType {
            case .palette: return length(1)
            case .gray, .grayAlpha: return length(2)
            case .rgb, .rgba: return length(6)
            }
        case "tEXt", "zTXt", "iTXt":
            guard let nul = d.prefix(80).firstIndex(of: 0), nul > d.startIndex else {
                return "its keyword is empty or not terminated within 80 bytes"
            }
            let rest = d[(nul + 1)...]
            if chunk.type == "zTXt" {
                guard let method = rest.first else { return "it ends after its keyword" }
                return method == 0 ? nil : "compression method \(method) is not 0 (zlib)"
            }
            if chunk.type == "iTXt" {
                guard rest.count >= 2 else { return "it ends after its keyword" }
                let flag = rest[rest.startIndex], method = rest[rest.startIndex + 1]
                guard flag <= 1 else { return "compression flag \(flag) is not 0 or 1" }
                guard flag == 0 || method == 0 else { return "compression method \(method) is not 0 (zlib)" }
                let fields = rest.dropFirst(2)
                guard let languageEnd = fields.firstIndex(of: 0),
                      fields[(languageEnd + 1)...].contains(0) else {
                    return "its language tag or translated keyword is not terminated"
                }
            }
            return nil
        default:
            return nil
        }
    }
}
