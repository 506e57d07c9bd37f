import ImageCore

/// Reads the first page of a TIFF through libtiff: the IFD, a ``TIFFPixelPlan``, limits, then pixels.
enum TIFFDecoder {
    /// The first IFD only: size, delivered format, orientation and container facts.
    static func header(_ bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> ImageHeader {
        try TIFFReader.withReader(bytes, maxSingleAllocation: allocationCap(options.limits)) { (reader) throws(DecodeError) -> ImageHeader in
            let (d, dropped) = try withoutEmptyPlanes(reader.directory(), reader)
            try options.limits.check(width: d.width, height: d.height)
            let plan = try TIFFPixelPlan(d)
            var metadata = metadata(d, plan, bytes)
            if let dropped { metadata.warnings.append(dropped) }
            return ImageHeader(container: .tiff, width: d.width, height: d.height, format: plan.format,
                               orientation: d.orientation ?? .up, frameCount: 1, metadata: metadata)
        }
    }

    /// The first page's pixels as stored, with the page count in `metadata.properties["pages"]`.
    static func decode(_ bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> Image {
        var limits = options.limits
        return try TIFFReader.withReader(bytes, maxSingleAllocation: allocationCap(limits)) { (reader) throws(DecodeError) -> Image in
            let (d, dropped) = try withoutEmptyPlanes(reader.directory(), reader)
            try limits.check(width: d.width, height: d.height)
            let plan = try TIFFPixelPlan(d)
            let bitmap: Bitmap
            switch plan.route {
            case .samples:
                var raster = try TIFFRaster.read(reader, d, limits: &limits)
                bitmap = try plan.bitmap(from: &raster, d, limits: &limits)
            case .rgbaInterface:
                bitmap = try rgbaBitmap(reader, d, plan, limits: &limits)
            }
            var metadata = metadata(d, plan, bytes)
            if let dropped { metadata.warnings.append(dropped) }
            metadata.properties["pages"] = String(reader.pageCount())
            if let (first, count) = reader.warnings() {
                metadata.properties["libtiff warnings"] = count == 1 ? first : "\(first) (and \(count - 1) more)"
            }
            return Image(bitmap: bitmap, orientation: d.orientation ?? .up, metadata: metadata)
        }
    }

    /// Pixels through `TIFFRGBAImageGet`: 8-bit RGB, or premultiplied RGBA when the plan has alpha.
    private static func rgbaBitmap(_ reader: TIFFReader, _ d: TIFFDirectory, _ plan: TIFFPixelPlan,
                                   limits: inout DecodeLimits) throws(DecodeError) -> Bitmap {
        let channels = plan.format.slotCount
        guard let pixels = TIFFRaster.product(d.width, d.height),
              let rasterBytes = TIFFRaster.product(pixels, 4),
              let outBytes = TIFFRaster.product(pixels, channels) else {
            throw .limitExceeded(.bytes, requested: .max, allowed: limits.maxBytes)
        }
        try limits.reserve(bytes: rasterBytes)
        var raster = [UInt32](repeating: 0, count: pixels)
        try reader.readRGBA(width: d.width, height: d.height, into: &raster)
        try limits.reserve(bytes: outBytes)
        var out = [UInt8](repeating: 0, count: outBytes)
        // Each word is A·2²⁴ + B·2¹⁶ + G·2⁸ + R (libtiff's TIFFGetR/G/B/A).
        for i in 0..<pixels {
            let word = raster[i]
            for c in 0..<channels { out[i * channels + c] = UInt8(truncatingIfNeeded: word >> UInt32(8 * c)) }
        }
        return Bitmap(uncheckedWidth: d.width, height: d.height, format: plan.format,
                      bytesPerRow: d.width * channels, bytes: out)
    }

    /// `d` without its trailing extra-sample planes whose strips all hold 0 bytes (a planar file
    /// that declares an extra sample but stores no data for it, as Pillow's
    /// `separate_planar_extra_samples.tiff`), and the warning saying so; `d` itself otherwise.
    static func withoutEmptyPlanes(_ d: TIFFDirectory, _ reader: TIFFReader) throws(DecodeError) -> (TIFFDirectory, String?) {
        guard d.isPlanar, !d.isTiled, !d.extraSamples.isEmpty, d.rowsPerStrip > 0, d.samplesPerPixel > 1 else { return (d, nil) }
        let stripsPerPlane = (d.height + min(d.rowsPerStrip, d.height) - 1) / min(d.rowsPerStrip, d.height)
        guard d.stripCount >= stripsPerPlane * d.samplesPerPixel else { return (d, nil) }
        var empty = 0
        for plane in stride(from: d.samplesPerPixel - 1, through: d.samplesPerPixel - d.extraSamples.count, by: -1) where plane > 0 {
            var allEmpty = true
            for strip in 0..<stripsPerPlane {
                if try reader.storedByteCount(plane * stripsPerPlane + strip) != 0 {
                    allEmpty = false
                    break
                }
            }
            guard allEmpty else { break }
            empty += 1
        }
        guard empty > 0 else { return (d, nil) }
        var trimmed = d
        trimmed.samplesPerPixel -= empty
        trimmed.extraSamples = Array(d.extraSamples.prefix(d.extraSamples.count - empty))
        return (trimmed, "TIFF extra sample plane\(empty == 1 ? "" : "s") ignored: \(empty) of \(d.samplesPerPixel) planes hold no data (every StripByteCount is 0)")
    }

    /// The IFD's metadata. An ExifIFD pointer whose IFD does not fit the file is reported as a
    /// warning (libtiff never follows it, so it cannot stop the pixels).
    private static func metadata(_ d: TIFFDirectory, _ plan: TIFFPixelPlan, _ bytes: [UInt8]) -> ImageMetadata {
        metadata(d, plan, fileSize: bytes.count) { offset, count in
            offset >= 0 && offset < bytes.count ? Array(bytes[offset..<min(bytes.count, offset + count)]) : []
        }
    }

    /// The IFD's metadata, for a file of `fileSize` bytes whose bytes `read(offset, count)` gives.
    static func metadata(_ d: TIFFDirectory, _ plan: TIFFPixelPlan, fileSize: Int,
                         read: (Int, Int) -> [UInt8]) -> ImageMetadata {
        var warnings: [String] = []
        if let offset = d.exifIFDOffset, let defect = exifIFDDefect(at: offset, d, fileSize: fileSize, read: read) {
            warnings.append("TIFF ExifIFD (tag 34665) ignored: \(defect)")
        }
        return ImageMetadata(iccProfile: d.iccProfile, orientationSource: d.orientation != nil ? .tiffTag : nil,
                             storedFormatNote: plan.note, storedBitDepth: d.bitsPerSample, properties: d.properties,
                             warnings: warnings)
    }

    /// Why the EXIF IFD at `offset` does not fit the file, or `nil` when its entry count and
    /// entries (12 bytes each, 20 in BigTIFF) lie inside it.
    static func exifIFDDefect(at offset: Int, _ d: TIFFDirectory, fileSize: Int, read: (Int, Int) -> [UInt8]) -> String? {
        let countBytes = d.isBigTIFF ? 8 : 2, entryBytes = d.isBigTIFF ? 20 : 12
        guard offset >= 8, offset <= fileSize - countBytes else {
            return "its IFD offset \(offset) is outside the \(fileSize)-byte file"
        }
        let field = read(offset, countBytes)
        guard field.count == countBytes else { return "its IFD at byte \(offset) cannot be read" }
        var count = 0
        for i in 0..<min(countBytes, 4) {
            count |= Int(field[d.isBigEndian ? countBytes - 1 - i : i]) << (8 * i)
        }
        let (size, overflow) = count.multipliedReportingOverflow(by: entryBytes)
        guard !overflow, size <= fileSize - offset - countBytes else {
            return "its IFD at byte \(offset) declares \(count) entries, which run past the end of the file"
        }
        return nil
    }

    /// The cap on one libtiff allocation: what is left of the byte budget (0 means none).
    private static func allocationCap(_ limits: DecodeLimits) -> Int {
        limits.maxBytes == .max ? 0 : max(limits.maxBytes - limits.reservedBytes, 1)
    }
}
