import ImageCore

/// One item property of a HEIF `ipco` box, read as far as imglab uses it.
struct HEIFProperty: Sendable {
    /// The box type (`ispe`, `irot`, `imir`, `clap`, `pixi`, `colr`, `auxC`, `hvcC`, `av1C`, …).
    var type: String
    /// `ispe`: the size in pixels.
    var width = 0, height = 0
    /// `irot`: quarter turns anticlockwise; `imir`: the mode (0 top–bottom, 1 left–right);
    /// `pixi`, `hvcC`, `av1C`: bits per sample.
    var value = 0
    /// `hvcC` (chroma_format_idc 0), `av1C` (mono_chrome): the coded picture is luma only.
    var monochrome = false
    /// `clap`: the clean aperture's size and centre offset from the image's centre, in pixels.
    var cleanAperture: (width: Double, height: Double, horizontalOffset: Double, verticalOffset: Double)?
    /// `colr` of type `prof` or `rICC`.
    var icc: [UInt8]?
    /// `colr` of type `nclx`.
    var nclx: (primaries: Int, transfer: Int, matrix: Int, fullRange: Bool)?
    /// `auxC`: whether the auxiliary type is alpha (HEVC's or MPEG-B's URN).
    var isAlphaAuxiliary = false

    init(type: String) { self.type = type }

    /// Reads the property boxes imglab knows from `payload` (the box after its header); others
    /// keep only their type.
    init(type: String, payload: [UInt8], container: ContainerFormat) throws(DecodeError) {
        self.type = type
        var r = ByteReader(payload, container: container)
        switch type {
        case "ispe":
            r.offset = 4
            width = Int(try r.u32("ispe width"))
            height = Int(try r.u32("ispe height"))
        case "irot", "imir":
            value = Int(try r.u8(type)) & (type == "irot" ? 3 : 1)
        case "pixi":
            r.offset = 4
            let channels = Int(try r.u8("pixi channel count"))
            value = channels > 0 ? Int(try r.u8("pixi bits")) : 8
        case "hvcC":
            r.offset = 16
            monochrome = try r.u8("hvcC chroma format") & 3 == 0
            value = Int(try r.u8("hvcC bit depth") & 7) + 8
        case "av1C":
            r.offset = 2
            let flags = try r.u8("av1C flags")
            value = flags & 0x40 == 0 ? 8 : flags & 0x20 == 0 ? 10 : 12
            monochrome = flags & 0x10 != 0
        case "clap":
            var terms: [Double] = []
            for _ in 0..<8 { terms.append(Double(Int32(bitPattern: try r.u32("clap term")))) }
            guard terms[1] > 0, terms[3] > 0, terms[5] > 0, terms[7] > 0 else {
                throw .malformed(container, reason: "clap has a denominator ≤ 0", offset: nil)
            }
            cleanAperture = (terms[0] / terms[1], terms[2] / terms[3], terms[4] / terms[5], terms[6] / terms[7])
        case "colr":
            let kind = String(decoding: try r.take(4, "colr type"), as: UTF8.self)
            if kind == "prof" || kind == "rICC" {
                icc = Array(payload[4...])
            } else if kind == "nclx" {
                let primaries = Int(try r.u16("nclx primaries")), transfer = Int(try r.u16("nclx transfer"))
                let matrix = Int(try r.u16("nclx matrix"))
                nclx = (primaries, transfer, matrix, try r.u8("nclx range") & 0x80 != 0)
            }
        case "auxC":
            let name = payload.dropFirst(4).prefix { $0 != 0 }
            isAlphaAuxiliary = ["urn:mpeg:hevc:2015:auxid:1", "urn:mpeg:mpegB:cicp:systems:auxiliary:alpha"]
                .contains(String(decoding: name, as: UTF8.self))
        default:
            break
        }
    }
}

/// The children of a HEIF `meta` box that imglab reads: the primary item, item types, item
/// locations, references and properties.
struct ItemBoxes {
    /// The `pitm` item.
    var primary: Int?
    /// Item types by item ID (`iinf`/`infe`).
    var types: [Int: String] = [:]
    /// Where an item's bytes are (`iloc`): extents as (offset, length), in the file or in `idat`.
    var locations: [Int: (inIdat: Bool, extents: [(offset: Int, length: Int)])] = [:]
    /// `iref` references by type: from one item to others.
    var references: [String: [(from: Int, to: [Int])]] = [:]
    /// `ipco`'s properties in order (index 1 is the first) and `ipma`'s associations by item.
    var propertyBoxes: [HEIFProperty] = []
    var associations: [Int: [Int]] = [:]
    /// The `idat` box's payload.
    var idat: [UInt8] = []

    /// The item's properties in the order `ipma` associates them.
    func properties(of item: Int) -> [HEIFProperty] {
        associations[item, default: []].compactMap { $0 >= 1 && $0 <= propertyBoxes.count ? propertyBoxes[$0 - 1] : nil }
    }

    /// The bytes of the `Exif` item that describes `item` (`cdsc`), from its TIFF header (the item
    /// starts with a 32-bit offset to it); `nil` when there is none.
    func exif(describing item: Int, in bytes: [UInt8], container: ContainerFormat) throws(DecodeError) -> [UInt8]? {
        let described = references["cdsc", default: []].filter { $0.to.contains(item) }.map(\.from)
        guard let exifItem = described.first(where: { types[$0] == "Exif" }),
              let data = try self.data(of: exifItem, in: bytes, container: container), data.count >= 4 else { return nil }
        let skip = 4 + (Int(data[0]) << 24 | Int(data[1]) << 16 | Int(data[2]) << 8 | Int(data[3]))
        return skip < data.count ? Array(data[skip...]) : nil
    }

    /// An item's bytes, joined from its extents (in the file or in `idat`); `nil` when `iloc` has no entry.
    func data(of item: Int, in bytes: [UInt8], container: ContainerFormat) throws(DecodeError) -> [UInt8]? {
        guard let location = locations[item] else { return nil }
        var data: [UInt8] = []
        for extent in location.extents {
            let source = location.inIdat ? idat : bytes
            guard extent.offset >= 0, extent.length >= 0, extent.offset <= source.count,
                  extent.length <= source.count - extent.offset, data.count + extent.length <= 1 << 24 else {
                throw .truncated(container, reason: "item \(item)'s extent lies outside the file", offset: extent.offset)
            }
            data += source[extent.offset..<extent.offset + extent.length]
        }
        return data
    }

    /// A `grid` item's descriptor (ISO/IEC 23008-12 §6.6.2.3.2): tiles in rows and columns, and the
    /// output size, which libheif allocates.
    func grid(_ item: Int, in bytes: [UInt8], container: ContainerFormat) throws(DecodeError) -> (rows: Int, columns: Int,
                                                                                                width: Int, height: Int) {
        guard let data = try self.data(of: item, in: bytes, container: container) else {
            throw .malformed(container, reason: "the grid item has no data", offset: nil)
        }
        var r = ByteReader(data, container: container)
        _ = try r.u8("grid version")
        let wide = try r.u8("grid flags") & 1 != 0
        let rows = Int(try r.u8("grid rows")) + 1, columns = Int(try r.u8("grid columns")) + 1
        let width = wide ? Int(try r.u32("grid width")) : Int(try r.u16("grid width"))
        let height = wide ? Int(try r.u32("grid height")) : Int(try r.u16("grid height"))
        return (rows, columns, width, height)
    }

    /// Reads the boxes of a `meta` box.
    init(_ bytes: [UInt8], _ container: ContainerFormat, _ children: [(type: String, start: Int, payload: Int, end: Int)])
        throws(DecodeError) {
        for box in children {
            let payload = Array(bytes[box.payload..<box.end])
            var r = ByteReader(payload, container: container)
            let version = payload.isEmpty ? 0 : Int(payload[0])
            switch box.type {
            case "pitm":
                r.offset = 4
                primary = version == 0 ? Int(try r.u16("pitm item")) : Int(try r.u32("pitm item"))
            case "iinf":
                r.offset = 4
                let count = version == 0 ? Int(try r.u16("iinf count")) : Int(try r.u32("iinf count"))
                for entry in try Self.children(payload, container, from: r.offset).prefix(count) where entry.type == "infe" {
                    var e = ByteReader(Array(payload[entry.payload..<entry.end]), container: container)
                    let infeVersion = Int(try e.u8("infe version"))
                    guard infeVersion >= 2 else { continue }
                    e.offset = 4
                    let id = infeVersion == 2 ? Int(try e.u16("infe item")) : Int(try e.u32("infe item"))
                    _ = try e.u16("infe protection")
                    types[id] = String(decoding: try e.take(4, "infe item type"), as: UTF8.self)
                }
            case "iloc":
                try readLocations(&r, version: version, container: container)
            case "iref":
                r.offset = 4
                for reference in try Self.children(payload, container, from: 4) {
                    var e = ByteReader(Array(payload[reference.payload..<reference.end]), container: container)
                    let from = version == 0 ? Int(try e.u16("iref from")) : Int(try e.u32("iref from"))
                    let count = Int(try e.u16("iref count"))
                    var to: [Int] = []
                    for _ in 0..<count { to.append(version == 0 ? Int(try e.u16("iref to")) : Int(try e.u32("iref to"))) }
                    references[reference.type, default: []].append((from, to))
                }
            case "iprp":
                for child in try Self.children(payload, container, from: 0) {
                    let body = Array(payload[child.payload..<child.end])
                    if child.type == "ipco" {
                        for property in try Self.children(body, container, from: 0) {
                            propertyBoxes.append(try HEIFProperty(type: property.type,
                                                                  payload: Array(body[property.payload..<property.end]),
                                                                  container: container))
                        }
                    } else if child.type == "ipma" {
                        try readAssociations(body, container: container)
                    }
                }
            case "idat":
                idat = payload
            default:
                break
            }
        }
    }

    /// The boxes inside `payload` from `start`, as offsets into it.
    private static func children(_ payload: [UInt8], _ container: ContainerFormat,
                                 from start: Int) throws(DecodeError) -> [(type: String, payload: Int, end: Int)] {
        var r = ByteReader(payload, container: container, offset: start)
        var found: [(type: String, payload: Int, end: Int)] = []
        while r.offset + 8 <= payload.count, found.count < 100_000 {
            let boxStart = r.offset
            let size = Int(try r.u32("box size"))
            let type = String(decoding: try r.take(4, "box type"), as: UTF8.self)
            let end = size == 0 ? payload.count : boxStart + size
            guard size == 0 || size >= 8, end <= payload.count else {
                throw .truncated(container, reason: "box \(type) declares \(size) bytes, \(payload.count - boxStart) remain",
                                 offset: nil)
            }
            found.append((type, r.offset, end))
            r.offset = end
        }
        return found
    }

    private mutating func readLocations(_ r: inout ByteReader, version: Int, container: ContainerFormat) throws(DecodeError) {
        r.offset = 4
        let sizes = try r.u16("iloc sizes")
        let offsetSize = Int(sizes >> 12), lengthSize = Int(sizes >> 8 & 15), baseSize = Int(sizes >> 4 & 15)
        let indexSize = version >= 1 ? Int(sizes & 15) : 0
        func sized(_ n: Int, _ what: String, _ r: inout ByteReader) throws(DecodeError) -> Int {
            switch n {
            case 0: return 0
            case 4: return Int(try r.u32(what))
            case 8:
                let high = Int(try r.u32(what)), low = Int(try r.u32(what))
                guard high < 1 << 20 else { throw .malformed(container, reason: "\(what) is over 2^52", offset: nil) }
                return high << 32 | low
            default: throw .malformed(container, reason: "iloc field size \(n) (0, 4 or 8 allowed)", offset: nil)
            }
        }
        let count = version < 2 ? Int(try r.u16("iloc count")) : Int(try r.u32("iloc count"))
        for _ in 0..<count {
            let id = version < 2 ? Int(try r.u16("iloc item")) : Int(try r.u32("iloc item"))
            let method = version >= 1 ? Int(try r.u16("iloc construction") & 15) : 0
            _ = try r.u16("iloc data reference")
            let base = try sized(baseSize, "iloc base offset", &r)
            let extentCount = Int(try r.u16("iloc extent count"))
            var extents: [(offset: Int, length: Int)] = []
            for _ in 0..<extentCount {
                _ = try sized(indexSize, "iloc extent index", &r)
                let offset = try sized(offsetSize, "iloc extent offset", &r)
                extents.append((base + offset, try sized(lengthSize, "iloc extent length", &r)))
            }
            locations[id] = (method == 1, extents)
        }
    }

    private mutating func readAssociations(_ body: [UInt8], container: ContainerFormat) throws(DecodeError) {
        var r = ByteReader(body, container: container)
        let word = Int(try r.u32("ipma version and flags"))
        let version = word >> 24, wideIndex = word & 1 != 0
        let count = Int(try r.u32("ipma count"))
        for _ in 0..<count {
            let id = version < 1 ? Int(try r.u16("ipma item")) : Int(try r.u32("ipma item"))
            let n = Int(try r.u8("ipma association count"))
            var indices: [Int] = []
            for _ in 0..<n {
                indices.append(wideIndex ? Int(try r.u16("ipma property") & 0x7FFF) : Int(try r.u8("ipma property") & 0x7F))
            }
            associations[id] = indices
        }
    }
}
