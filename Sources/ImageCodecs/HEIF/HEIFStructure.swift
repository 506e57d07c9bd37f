import ImageCore

/// The boxes of a HEIF or AVIF file, read without decoding a pixel: what `imglab info` reports,
/// the orientation its transform properties state, and what the decoder checks against the limits.
///
/// Both are ISO base media files (ISO/IEC 14496-12): boxes of a 32-bit big-endian size (1: a
/// 64-bit size follows; 0: to the end of the file) and a four-letter type. `ftyp` names the brands;
/// `meta` holds the items (ISO/IEC 23008-12, HEIF): `pitm` the primary item, `iinf` each item's
/// type (`hvc1` HEVC, `av01` AV1, `grid` tiles, `Exif`), `iloc` where an item's bytes are, `iref`
/// the references between items (`auxl` an auxiliary image of, `prem` premultiplied by, `cdsc`
/// describes), and `iprp` the properties (`ipco`) with their associations (`ipma`): `ispe` size,
/// `clap` clean aperture, `irot` rotation, `imir` mirror, `pixi` bit depth, `colr` colour, `auxC`
/// auxiliary type, `hvcC`/`av1C` the coder's configuration.
struct HEIFStructure: Sendable, Hashable {
    /// HEIF (HEVC) or AVIF (AV1), from the brands.
    var container: ContainerFormat
    /// The `ftyp` major brand and its compatible brands.
    var majorBrand: String, compatibleBrands: [String]
    /// The primary item's type (`hvc1`, `av01`, `grid`, …).
    var primaryItemType: String
    /// The stored size in pixels: the primary item's `ispe`, or its clean aperture when it has one.
    var width: Int, height: Int
    /// The size the coded image decodes to (`ispe`), before the clean aperture.
    var codedWidth: Int, codedHeight: Int
    /// Where the clean aperture lies in the coded image (ISO/IEC 14496-12 §12.1.4: its centre is the
    /// image's, (w − 1) / 2, moved by the offset), or the whole image.
    var cleanAperture: PixelRect
    /// The rotation and mirror of the primary item's `irot` and `imir`, in the order `ipma` lists
    /// them, as one EXIF-numbered orientation; `.up` when it has neither.
    var orientation: Orientation
    /// What libheif decodes before it crops: the coded size, or for a grid its tiles' area (rows ×
    /// columns tiles of the first tile's `ispe`), in pixels a side.
    var decodedArea: (width: Int, height: Int)
    /// Whether the primary item has `irot` or `imir`.
    var hasTransform: Bool
    /// Whether the primary item has a `clap`.
    var hasCleanAperture: Bool { cleanAperture.width != codedWidth || cleanAperture.height != codedHeight }
    /// Whether an alpha auxiliary image (`auxl` with an alpha `auxC`) belongs to the primary item.
    var hasAlpha: Bool
    /// Whether the colour is premultiplied by that alpha (a `prem` reference from the primary item).
    var premultipliedAlpha: Bool
    /// Bits per sample of the primary item (`pixi`, else the `hvcC`/`av1C` configuration), 8 when unstated.
    var bitDepth: Int
    /// Whether the coded picture is luma only (`hvcC` chroma format 0, `av1C` mono_chrome).
    var monochrome = false
    /// The alpha auxiliary image's item ID (`auxl` to the primary item, `auxC` of the alpha type).
    var alphaItem: Int?
    /// A luma-only picture without alpha is delivered as gray.
    var decodesAsGray: Bool { monochrome && !hasAlpha }
    /// The `colr` ICC profile (`prof` or `rICC`).
    var iccProfile: [UInt8]?
    /// The `colr` `nclx` code points (ITU-T H.273): primaries, transfer, matrix, full range.
    var nclx: (primaries: Int, transfer: Int, matrix: Int, fullRange: Bool)?
    /// The `Exif` item describing the primary image, from its TIFF byte-order mark.
    var exif: [UInt8]?
    /// An image sequence's picture track (`moov`), beside the still primary item; `nil` for a still image.
    var sequence: ImageSequenceTrack?

    static func == (a: Self, b: Self) -> Bool {
        a.container == b.container && a.width == b.width && a.height == b.height && a.orientation == b.orientation
            && a.hasAlpha == b.hasAlpha && a.premultipliedAlpha == b.premultipliedAlpha && a.bitDepth == b.bitDepth
            && a.monochrome == b.monochrome
            && a.iccProfile == b.iccProfile && a.exif == b.exif && a.primaryItemType == b.primaryItemType
            && a.sequence == b.sequence
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(container)
        hasher.combine(width)
        hasher.combine(height)
        hasher.combine(orientation)
    }

    /// Brands of image files: HEVC-coded HEIF, and AVIF.
    private static let heifBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs", "mif1", "msf1",
                                                  "miaf"]
    private static let avifBrands: Set<String> = ["avif", "avis"]

    /// The container the first bytes announce: `ftyp` at 4, then a HEIF or AVIF major brand (or
    /// `mif1`/`msf1` with `avif` the first compatible brand); `nil` for anything else (an MP4, say).
    static func container(of head: [UInt8]) -> ContainerFormat? {
        guard head.count >= 12, head[4..<8].elementsEqual("ftyp".utf8) else { return nil }
        let major = String(decoding: head[8..<12], as: UTF8.self)
        if avifBrands.contains(major) { return .avif }
        guard heifBrands.contains(major) else { return nil }
        if head.count >= 20, avifBrands.contains(String(decoding: head[16..<20], as: UTF8.self)) { return .avif }
        return .heif
    }

    /// One box: its type and where its payload lies.
    struct Box {
        var type: String
        var start: Int, payload: Int, end: Int
    }

    /// The boxes between `start` and `end`, each checked to lie within them.
    static func boxes(_ bytes: [UInt8], _ container: ContainerFormat, from start: Int, to end: Int,
                              limit: Int = 10_000) throws(DecodeError) -> [Box] {
        var r = ByteReader(bytes, container: container, offset: start)
        var found: [Box] = []
        while r.offset + 8 <= end {
            let boxStart = r.offset
            var size = Int(try r.u32("box size"))
            let type = String(decoding: try r.take(4, "box type"), as: UTF8.self)
            if size == 1 {
                let high = Int(try r.u32("box size")), low = Int(try r.u32("box size"))
                guard high < 1 << 20 else { throw .malformed(container, reason: "box \(type) is over 2^52 bytes", offset: boxStart) }
                size = high << 32 | low
            } else if size == 0 {
                size = end - boxStart
            }
            guard size >= r.offset - boxStart, size <= end - boxStart else {
                throw .truncated(container, reason: "box \(type) declares \(size) bytes, \(end - boxStart) remain", offset: boxStart)
            }
            found.append(Box(type: type, start: boxStart, payload: r.offset, end: boxStart + size))
            guard found.count <= limit else { throw .malformed(container, reason: "more than \(limit) boxes", offset: boxStart) }
            r.offset = boxStart + size
        }
        return found
    }

    /// Reads the boxes of `bytes`.
    /// - Throws: ``DecodeError/malformed(_:reason:offset:)`` or ``DecodeError/truncated(_:reason:offset:)``
    ///   naming the box; ``DecodeError/unsupported(_:feature:)`` for a file without a primary image.
    init(_ bytes: [UInt8]) throws(DecodeError) {
        guard let container = Self.container(of: Array(bytes.prefix(24))) else {
            throw .malformed(.heif, reason: "no ftyp box with a HEIF or AVIF brand", offset: 0)
        }
        self.container = container
        let top = try Self.boxes(bytes, container, from: 0, to: bytes.count)
        guard let ftyp = top.first, ftyp.type == "ftyp", ftyp.end - ftyp.payload >= 8 else {
            throw .malformed(container, reason: "the file does not start with an ftyp box", offset: 0)
        }
        majorBrand = String(decoding: bytes[ftyp.payload..<ftyp.payload + 4], as: UTF8.self)
        compatibleBrands = stride(from: ftyp.payload + 8, to: ftyp.end - 3, by: 4).map {
            String(decoding: bytes[$0..<$0 + 4], as: UTF8.self)
        }
        guard let meta = top.first(where: { $0.type == "meta" }) else {
            throw .unsupported(container, feature: "a file without a meta box (an image sequence only)")
        }
        let children = try Self.boxes(bytes, container, from: meta.payload + 4, to: meta.end)
        let items = try ItemBoxes(bytes, container, children.map { ($0.type, $0.start, $0.payload, $0.end) })
        guard let primary = items.primary else { throw .malformed(container, reason: "no pitm box", offset: meta.start) }
        guard let type = items.types[primary] else {
            throw .malformed(container, reason: "the primary item \(primary) has no infe entry", offset: meta.start)
        }
        primaryItemType = type
        let properties = items.properties(of: primary)
        guard let ispe = properties.first(where: { $0.type == "ispe" }) else {
            throw .malformed(container, reason: "the primary item has no ispe (image size) property", offset: meta.start)
        }
        (codedWidth, codedHeight) = (ispe.width, ispe.height)
        cleanAperture = PixelRect(x: 0, y: 0, width: ispe.width, height: ispe.height)
        if let clap = properties.first(where: { $0.type == "clap" })?.cleanAperture {
            let w = clap.width.rounded(), h = clap.height.rounded()
            let left = (clap.horizontalOffset + Double(ispe.width - 1) / 2 - (w - 1) / 2).rounded()
            let top = (clap.verticalOffset + Double(ispe.height - 1) / 2 - (h - 1) / 2).rounded()
            guard w >= 1, h >= 1, left >= 0, top >= 0, left + w <= Double(ispe.width), top + h <= Double(ispe.height) else {
                throw .malformed(container, reason: "the clean aperture lies outside the \(ispe.width)×\(ispe.height) image",
                                 offset: meta.start)
            }
            cleanAperture = PixelRect(x: Int(left), y: Int(top), width: Int(w), height: Int(h))
        }
        (width, height) = (cleanAperture.width, cleanAperture.height)
        guard width > 0, height > 0, codedWidth < 1 << 30, codedHeight < 1 << 30 else {
            throw .malformed(container, reason: "image size \(codedWidth)×\(codedHeight)", offset: meta.start)
        }
        var orientation = Orientation.up
        for property in properties {
            if property.type == "irot" { orientation = orientation.followed(by: Self.rotation(anticlockwiseQuarterTurns: property.value)) }
            if property.type == "imir" { orientation = orientation.followed(by: property.value == 0 ? .downMirrored : .upMirrored) }
        }
        self.orientation = orientation
        hasTransform = properties.contains { $0.type == "irot" || $0.type == "imir" }
        let alphaItem = items.references["auxl", default: []].first { reference in
            reference.to.contains(primary) && items.properties(of: reference.from).contains { $0.isAlphaAuxiliary }
        }?.from
        self.alphaItem = alphaItem
        hasAlpha = alphaItem != nil
        premultipliedAlpha = alphaItem.map { alpha in
            items.references["prem", default: []].contains { $0.from == primary && $0.to.contains(alpha) }
        } ?? false
        let coded = type == "grid" ? items.references["dimg", default: []].first { $0.from == primary }?.to.first : primary
        decodedArea = (codedWidth, codedHeight)
        if type == "grid" {
            // libheif allocates the grid's stated output and decodes every tile: both must be what ispe says.
            let grid = try items.grid(primary, in: bytes, container: container)
            guard grid.width == codedWidth, grid.height == codedHeight else {
                throw .malformed(container, reason: "the grid's output \(grid.width)×\(grid.height) is not its ispe "
                                 + "\(codedWidth)×\(codedHeight)", offset: meta.start)
            }
            guard let tile = coded.flatMap({ items.properties(of: $0).first { $0.type == "ispe" } }) else {
                throw .malformed(container, reason: "the grid's first tile has no ispe", offset: meta.start)
            }
            let area = (grid.columns * tile.width, grid.rows * tile.height)
            guard area.0 >= codedWidth, area.1 >= codedHeight else {
                throw .malformed(container, reason: "the grid's tiles cover \(area.0)×\(area.1), less than its output",
                                 offset: meta.start)
            }
            decodedArea = area
        }
        // An AV1 stream may declare larger frames than ispe: dav1d allocates for those.
        if let item = coded, items.types[item] == "av01", let data = try items.data(of: item, in: bytes, container: container),
           let frame = AV1SequenceHeader.maxFrameSize(in: data) {
            decodedArea = (max(decodedArea.width, frame.width), max(decodedArea.height, frame.height))
        }
        let configuration = coded.flatMap { items.properties(of: $0).first { $0.type == "hvcC" || $0.type == "av1C" } }
        bitDepth = properties.first { $0.type == "pixi" }?.value ?? configuration?.value ?? 8
        monochrome = configuration?.monochrome ?? false
        iccProfile = properties.first { $0.icc != nil }?.icc
        nclx = properties.first { $0.nclx != nil }?.nclx
        exif = try items.exif(describing: primary, in: bytes, container: container)
        if let moov = top.first(where: { $0.type == "moov" }) {
            sequence = try ImageSequenceTrack.read(bytes, container, moov: moov)
        }
    }

    /// The orientation that shows an image turned `turns` quarter turns anticlockwise (`irot`).
    static func rotation(anticlockwiseQuarterTurns turns: Int) -> Orientation {
        [.up, .left, .down, .right][turns & 3]
    }
}
