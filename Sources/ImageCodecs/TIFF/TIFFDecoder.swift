import ImageCore

/// Reads the first page of a TIFF through libtiff: the IFD, a ``TIFFPixelPlan``, limits, then pixels.
enum TIFFDecoder {
    /// The first IFD only: size, delivered format, orientation and container facts.
    static func header(_ bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> ImageHeader {
        try TIFFReader.withReader(bytes, maxSingleAllocation: allocationCap(options.limits)) { (reader) throws(DecodeError) -> ImageHeader in
            let d = try reader.directory()
            try options.limits.check(width: d.width, height: d.height)
            let plan = try TIFFPixelPlan(d)
            return ImageHeader(container: .tiff, width: d.width, height: d.height, format: plan.format,
                               orientation: d.orientation ?? .up, frameCount: 1, metadata: metadata(d, plan))
        }
    }

    /// The first page's pixels as stored, with the page count in `metadata.properties["pages"]`.
    static func decode(_ bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> Image {
        var limits = options.limits
        return try TIFFReader.withReader(bytes, maxSingleAllocation: allocationCap(limits)) { (reader) throws(DecodeError) -> Image in
            let d = try reader.directory()
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
            var metadata = metadata(d, plan)
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

    private static func metadata(_ d: TIFFDirectory, _ plan: TIFFPixelPlan) -> ImageMetadata {
        ImageMetadata(iccProfile: d.iccProfile, orientationSource: d.orientation != nil ? .tiffTag : nil,
                      storedFormatNote: plan.note, storedBitDepth: d.bitsPerSample, properties: d.properties)
    }

    /// The cap on one libtiff allocation: what is left of the byte budget (0 means none).
    private static func allocationCap(_ limits: DecodeLimits) -> Int {
        limits.maxBytes == .max ? 0 : max(limits.maxBytes - limits.reservedBytes, 1)
    }
}
