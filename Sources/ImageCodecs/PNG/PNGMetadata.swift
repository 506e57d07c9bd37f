import Foundation
import ImageCore

/// The ancillary chunks imglab reads itself, straight from the chunk list (libpng is told to
/// skip them): gAMA, sRGB, iCCP, eXIf, and the text chunks that carry an orientation.
///
/// Orientation sources, first match wins: the eXIf chunk (PNG 3rd ed. §11.3.6.1, may come
/// after IDAT); an ImageMagick "Raw profile type exif" tEXt/zTXt chunk (hex-encoded EXIF);
/// an XMP packet (iTXt keyword `XML:com.adobe.xmp`) with `tiff:Orientation`.
struct PNGMetadata: Sendable {
    /// What the file says about its pixels.
    var metadata: ImageMetadata
    /// The orientation, `.up` when none is declared.
    var orientation: Orientation

    /// The largest ICC profile the reader inflates (bytes).
    static let maxInflatedSize = 64 << 20
    /// The largest text the reader inflates (bytes), as libpng's default chunk limit.
    static let maxInflatedText = 8_000_000
    /// The text keywords that can carry an orientation; other text chunks are never inflated.
    static let orientationKeywords: Set<String> = ["Raw profile type exif", "XML:com.adobe.xmp"]

    /// Reads the metadata chunks of `list`.
    ///
    /// Never throws for an ancillary chunk: a broken one (bad CRC, wrong length, a value out of
    /// range, an iCCP or text stream that does not inflate, an eXIf block whose TIFF structure
    /// is broken) costs that chunk only. An inflated profile is kept verbatim, whatever its bytes. It is dropped and a sentence naming the chunk,
    /// its byte offset and the rule it breaks goes to `metadata.warnings`, as browsers, libpng's
    /// defaults and Pillow decode such files and drop the chunk.
    init(reading list: PNGChunkList, header: PNGImageHeader) {
        var metadata = ImageMetadata()
        metadata.storedBitDepth = header.bitDepth
        metadata.properties["interlace"] = header.interlaced ? "Adam7" : "none"
        metadata.properties["color type"] = "\(header.colorType.rawValue) (\(header.colorType.name))"
        let ancillary = list.chunks.filter { !$0.isCritical }.map(\.type)
        var seen = Set<String>()
        let distinct = ancillary.filter { seen.insert($0).inserted }
        if !distinct.isEmpty { metadata.properties["chunks"] = distinct.joined(separator: " ") }
        let damaged = list.chunks.filter { !$0.crcMatches }
        if !damaged.isEmpty { metadata.properties["ignored (bad CRC)"] = damaged.map(\.type).joined(separator: " ") }
        for chunk in damaged {
            metadata.warnings.append(Self.warning(chunk, "its CRC does not match its data"))
        }
        for chunk in list.chunks where chunk.crcMatches && !chunk.isCritical {
            if let defect = PNGAncillaryCheck.defect(of: chunk, header: header) {
                metadata.warnings.append(Self.warning(chunk, defect))
            }
        }

        if let gAMA = list.first("gAMA"), gAMA.data.count == 4 {
            let value = PNGChunkList.u32(gAMA.data, 0)
            if value > 0 { metadata.gamma = Double(value) / 100_000 }
        }
        if let sRGB = list.first("sRGB"), sRGB.data.count == 1, let intent = sRGB.data.first, intent <= 3 {
            metadata.sRGBIntent = Int(intent)
        }
        // cHRM (PNG §11.3.3.2): white, red, green, blue as x, y pairs, each × 100000.
        if let cHRM = list.first("cHRM"), cHRM.data.count == 32 {
            let xy = (0..<8).map { Double(PNGChunkList.u32(cHRM.data, 4 * $0)) / 100_000 }
            metadata.chromaticities = xy
            let v = xy.map { String(format: "%.5f", $0) }
            metadata.properties["chromaticities"] = "white \(v[0]),\(v[1]) red \(v[2]),\(v[3]) green \(v[4]),\(v[5]) blue \(v[6]),\(v[7])"
        }
        // cICP (PNG third edition): colour primaries, transfer, matrix (0: RGB), full range, as ITU-T H.273 codes.
        if let cICP = list.first("cICP"), cICP.data.count == 4 {
            let c = Array(cICP.data)
            metadata.codingPoints = c
            metadata.properties["cicp"] = "primaries \(c[0]), transfer \(c[1]), matrix \(c[2]), full range \(c[3])"
                + (Self.cicpName(primaries: c[0], transfer: c[1]).map { " (\($0))" } ?? "")
        }
        if let iCCP = list.first("iCCP") {
            do throws(DecodeError) {
                let (name, profile) = try Self.readICC(iCCP)
                metadata.iccProfile = profile
                metadata.properties["icc profile name"] = name
            } catch {
                metadata.warnings.append(Self.warning(iCCP, Self.reason(error)))
            }
        }

        var orientation: Orientation?
        if let eXIf = list.first("eXIf"), !eXIf.data.isEmpty {
            let block = Self.strippingExifPrefix(Array(eXIf.data))
            if let defect = EXIF.defect(in: block) {
                metadata.warnings.append(Self.warning(eXIf, "its EXIF block is unreadable: \(defect)"))
            } else {
                metadata.exif = block
                if let found = EXIF.orientation(in: block) {
                    orientation = found
                    metadata.orientationSource = .pngExif
                }
            }
        }
        var unreadable: [PNGChunk] = []
        for text in Self.textChunks(list, keywords: Self.orientationKeywords, unreadable: &unreadable) {
            if text.keyword == "Raw profile type exif", let block = Self.rawProfileBytes(text.text) {
                let exif = Self.strippingExifPrefix(block)
                if let defect = EXIF.defect(in: exif) {
                    metadata.warnings.append("PNG \(text.chunk) 'Raw profile type exif' ignored: its EXIF block is unreadable: \(defect)")
                    continue
                }
                if metadata.exif == nil { metadata.exif = exif }
                if orientation == nil, let found = EXIF.orientation(in: exif) {
                    orientation = found
                    metadata.orientationSource = .pngExif
                    metadata.properties["orientation chunk"] = "\(text.chunk) Raw profile type exif"
                }
            } else if text.keyword == "XML:com.adobe.xmp", orientation == nil,
                      let value = Self.xmpOrientation(text.text), let found = Orientation(exifValue: value) {
                orientation = found
                metadata.orientationSource = .xmp
            }
        }
        for chunk in unreadable {
            metadata.warnings.append(Self.warning(chunk, "its compressed text cannot be inflated"))
        }
        self.metadata = metadata
        self.orientation = orientation ?? .up
    }

    /// The warning for a dropped chunk: "PNG iCCP at byte 33 ignored: …".
    static func warning(_ chunk: PNGChunk, _ why: String) -> String {
        "PNG \(chunk.type) at byte \(chunk.offset) ignored: \(why)"
    }

    /// The rule a decode error names, without the container prefix.
    static func reason(_ error: DecodeError) -> String {
        switch error {
        case .malformed(_, let reason, _), .truncated(_, let reason, _): return reason
        case .unsupported(_, let feature): return "unsupported: \(feature)"
        default: return error.description
        }
    }

    /// The profile name and the inflated profile of an iCCP chunk (§11.3.3.3).
    static func readICC(_ chunk: PNGChunk) throws(DecodeError) -> (String, [UInt8]) {
        let d = chunk.data
        guard let nul = d.prefix(80).firstIndex(of: 0), nul > d.startIndex else {
            throw .malformed(.png, reason: "iCCP profile name is empty or not terminated within 80 bytes", offset: chunk.dataOffset)
        }
        let name = String(decoding: d[d.startIndex..<nul], as: UTF8.self)
        let methodIndex = nul + 1
        guard methodIndex < d.endIndex else {
            throw .malformed(.png, reason: "iCCP ends after its profile name", offset: chunk.dataOffset)
        }
        let method = d[methodIndex]
        guard method == 0 else {
            throw .unsupported(.png, feature: "iCCP compression method \(method) (only 0, zlib, is defined)")
        }
        switch PNGZlib.inflate(d[(methodIndex + 1)...], maxOutput: maxInflatedSize) {
        case .data(let profile):
            return (name, profile)
        case .corrupt(let why):
            throw .malformed(.png, reason: "iCCP profile '\(name)' cannot be inflated: \(why)", offset: chunk.dataOffset + (methodIndex + 1 - d.startIndex))
        case .tooLarge(let allowed):
            throw .limitExceeded(.bytes, requested: allowed + 1, allowed: allowed)
        }
    }

    /// A decoded text chunk.
    struct Text: Sendable {
        var chunk: String
        var keyword: String
        var text: String
    }

    /// The first readable tEXt, zTXt or iTXt chunk for each of `keywords`; unreadable ones
    /// are skipped (their text is free-form and only consulted for an orientation).
    /// - Parameter unreadable: receives the chunks of those keywords whose compressed text does not inflate.
    static func textChunks(_ list: PNGChunkList, keywords: Set<String>, unreadable: inout [PNGChunk]) -> [Text] {
        var texts: [Text] = []
        var pending = keywords
        for chunk in list.chunks where chunk.crcMatches && ["tEXt", "zTXt", "iTXt"].contains(chunk.type) {
            let d = chunk.data
            guard let nul = d.prefix(80).firstIndex(of: 0) else { continue }
            let keyword = String(decoding: d[d.startIndex..<nul], as: UTF8.self)
            guard pending.contains(keyword) else { continue }
            let rest = d[(nul + 1)...]
            defer { if texts.last?.keyword == keyword { pending.remove(keyword) } }
            switch chunk.type {
            case "tEXt":
                texts.append(Text(chunk: chunk.type, keyword: keyword, text: String(decoding: rest, as: UTF8.self)))
            case "zTXt":
                guard rest.first == 0, case .data(let text) = PNGZlib.inflate(rest.dropFirst(), maxOutput: maxInflatedText) else {
                    unreadable.append(chunk)
                    continue
                }
                texts.append(Text(chunk: chunk.type, keyword: keyword, text: String(decoding: text, as: UTF8.self)))
            default: // iTXt: compression flag, method, language tag\0, translated keyword\0, text
                guard rest.count >= 2 else { continue }
                let compressed = rest[rest.startIndex] == 1
                var fields = rest.dropFirst(2)
                guard let languageEnd = fields.firstIndex(of: 0) else { continue }
                fields = fields[(languageEnd + 1)...]
                guard let translatedEnd = fields.firstIndex(of: 0) else { continue }
                let body = fields[(translatedEnd + 1)...]
                if compressed {
                    guard case .data(let text) = PNGZlib.inflate(body, maxOutput: maxInflatedText) else {
                        unreadable.append(chunk)
                        continue
                    }
                    texts.append(Text(chunk: chunk.type, keyword: keyword, text: String(decoding: text, as: UTF8.self)))
                } else {
                    texts.append(Text(chunk: chunk.type, keyword: keyword, text: String(decoding: body, as: UTF8.self)))
                }
            }
        }
        return texts
    }

    /// The bytes of an ImageMagick raw profile: `\n<type>\n<spaces><length>\n<hex digits…>`.
    static func rawProfileBytes(_ text: String) -> [UInt8]? {
        let lines = text.split(separator: "\n")
        guard lines.count >= 3, let length = Int(lines[1].filter { !$0.isWhitespace }),
              length > 0, length <= maxInflatedSize else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(length)
        var high: UInt8?
        for character in lines[2...].joined().utf8 {
            guard let digit = hexDigit(character) else { continue }
            if let h = high { bytes.append(h << 4 | digit); high = nil } else { high = digit }
            if bytes.count == length { break }
        }
        return bytes.count == length ? bytes : nil
    }

    private static func hexDigit(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x41...0x46: return c - 0x41 + 10
        case 0x61...0x66: return c - 0x61 + 10
        default: return nil
        }
    }

    /// The `tiff:Orientation` value of an XMP packet, as attribute or element.
    static func xmpOrientation(_ xmp: String) -> Int? {
        guard let range = xmp.range(of: "tiff:Orientation") else { return nil }
        let tail = xmp[range.upperBound...].prefix(64).drop { $0 == " " || $0 == "=" || $0 == "\"" || $0 == "'" || $0 == ">" }
        let digits = tail.prefix { $0.isASCII && $0.isNumber }
        return Int(digits)
    }


    /// The common name of an H.273 primaries and transfer pair, where it has one.
    static func cicpName(primaries: UInt8, transfer: UInt8) -> String? {
        switch (primaries, transfer) {
        case (1, 13): return "sRGB"
        case (12, 13): return "Display P3"
        case (9, 16): return "Rec. 2100 PQ"
        case (9, 18): return "Rec. 2100 HLG"
        case (1, 1), (1, 6), (1, 14), (1, 15): return "Rec. 709"
        default: return nil
        }
    }
    /// `block` without the `Exif\0\0` prefix some writers put before the TIFF header.
    static func strippingExifPrefix(_ block: [UInt8]) -> [UInt8] {
        block.starts(with: EXIF.jpegPrefix) ? Array(block.dropFirst(EXIF.jpegPrefix.count)) : block
    }
}
