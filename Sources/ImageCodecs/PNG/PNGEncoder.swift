import CImageShim
import Foundation
import ImageCore

/// Writing PNG files: libpng writes the image chunks (IHDR, PLTE, tRNS, IDAT, IEND) and the
/// metadata chunks are serialised here and placed right after IHDR.
enum PNGEncoder {
    /// See ``PNGCodec/encode(_:options:)``.
    static func encode(_ image: Image, options: EncodeOptions) throws(EncodeError) -> [UInt8] {
        if let animation = image.animation, animation.frames.count > 1 {
            return try APNGWriter.encode(animation: animation, of: image, options: options)
        }
        let bitmap = try storable(image.bitmap)
        let png = try writeImageChunks(bitmap, interlaced: options.interlaced, smallest: options.pngCompression == .smallest)
        return inserting(metadataChunks(image.metadata, orientation: image.orientation, options: options), afterIHDRof: png)
    }

    /// The nearest format PNG stores for `format` (the rules are listed on ``PNGCodec/encode(_:options:)``).
    static func storableFormat(for format: PixelFormat) -> PixelFormat {
        let wide = format.bitsPerComponent > 8
        let alpha: AlphaInfo = format.alphaInfo.hasAlpha ? .last : .none
        switch format.colorModel {
        case .indexed:
            return format
        case .gray where alpha == .none && !format.isFloat && [1, 2, 4].contains(format.bitsPerComponent):
            return PixelFormat(colorModel: .gray, bitsPerComponent: format.bitsPerComponent)
        case .gray, .none:
            return PixelFormat(colorModel: .gray, bitsPerComponent: wide ? 16 : 8, alphaInfo: format.colorModel == .none ? .last : alpha)
        case .rgb, .cmyk:
            return PixelFormat(colorModel: .rgb, bitsPerComponent: wide ? 16 : 8, alphaInfo: alpha)
        }
    }

    /// `bitmap` in its storable format, with tight rows.
    static func storable(_ bitmap: Bitmap) throws(EncodeError) -> Bitmap {
        let target = storableFormat(for: bitmap.format)
        guard target != bitmap.format else { return bitmap.tightlyPacked() }
        do {
            return try bitmap.converted(to: target)
        } catch {
            throw .unsupportedFormat(.png, bitmap.format, suggestion: "convert to \(target) first (\(error))")
        }
    }

    /// The IHDR colour type of a storable format.
    static func colorType(of format: PixelFormat) -> PNGColorType {
        switch (format.colorModel, format.alphaInfo.hasAlpha) {
        case (.indexed, _): return .palette
        case (.gray, false): return .gray
        case (.gray, true): return .grayAlpha
        case (_, false): return .rgb
        case (_, true): return .rgba
        }
    }

    /// A complete PNG of `bitmap` (already storable, tight rows) written by libpng.
    static func writeImageChunks(_ bitmap: Bitmap, interlaced: Bool, smallest: Bool = false) throws(EncodeError) -> [UInt8] {
        var status = imglab_png_status()
        var output: UnsafeMutablePointer<UInt8>?
        var outputSize = 0
        let code = bitmap.bytes.withUnsafeBufferPointer { pixels in
            withImage(width: bitmap.width, height: bitmap.height, format: bitmap.format, interlaced: interlaced, smallest: smallest) { image in
                imglab_png_write(&image, pixels.baseAddress, bitmap.bytesPerRow, &output, &outputSize, &status)
            }
        }
        guard code == IMGLAB_PNG_OK, let output else { throw failure(status) }
        defer { imglab_png_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: outputSize))
    }

    /// Calls `body` with the libpng description of a `width × height` image of a storable
    /// `format` (palette and tRNS included); the pointers in it live during the call only.
    static func withImage<T>(width: Int, height: Int, format: PixelFormat, interlaced: Bool, smallest: Bool,
                             _ body: (inout imglab_png_image) -> T) -> T {
        var paletteRGB: [UInt8] = []
        var alphas: [UInt8] = []
        if case .indexed(let palette) = format.colorModel {
            paletteRGB = palette.entries.flatMap { [$0.red, $0.green, $0.blue] }
            alphas = palette.entries.map(\.alpha)
            // tRNS stops at the last non-opaque entry (§11.3.2.1: missing alphas are 255).
            while alphas.last == 255 { alphas.removeLast() }
        }
        return paletteRGB.withUnsafeBufferPointer { rgb in
            alphas.withUnsafeBufferPointer { alpha in
                var image = imglab_png_image(
                    width: UInt32(width), height: UInt32(height),
                    bit_depth: Int32(format.bitsPerComponent),
                    color_type: Int32(colorType(of: format).rawValue), interlace: interlaced ? 1 : 0,
                    palette_rgb: rgb.baseAddress, palette_count: Int32(rgb.count / 3),
                    trns_alpha: alpha.baseAddress, trns_count: Int32(alpha.count), compression: smallest ? 1 : 0)
                return body(&image)
            }
        }
    }

    /// The error of a failed libpng write.
    static func failure(_ status: imglab_png_status) -> EncodeError {
        let message = withUnsafeBytes(of: status.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return .library(.png, "libpng: \(message)")
    }

    /// The serialised cICP, iCCP or sRGB, cHRM, gAMA and eXIf chunks for `metadata` and `orientation`.
    static func metadataChunks(_ metadata: ImageMetadata, orientation: Orientation, options: EncodeOptions) -> [UInt8] {
        var out: [UInt8] = []
        if let codes = metadata.codingPoints, codes.count == 4 {
            out += PNGChunkList.serialize("cICP", codes)
        }
        if let c = metadata.chromaticities, c.count == 8, c.allSatisfy({ $0 >= 0 && $0 * 100_000 < Double(UInt32.max) }) {
            out += PNGChunkList.serialize("cHRM", c.flatMap { PNGChunkList.bigEndian(UInt32(($0 * 100_000).rounded())) })
        }
        if let profile = metadata.iccProfile, !profile.isEmpty, let compressed = PNGZlib.deflate(profile) {
            out += PNGChunkList.serialize("iCCP", Array(iccName(metadata).utf8) + [0, 0] + compressed)
        } else if let intent = metadata.sRGBIntent, (0...3).contains(intent) {
            out += PNGChunkList.serialize("sRGB", [UInt8(intent)])
        }
        if let gamma = metadata.gamma, gamma > 0, gamma * 100_000 < Double(UInt32.max) {
            out += PNGChunkList.serialize("gAMA", PNGChunkList.bigEndian(UInt32((gamma * 100_000).rounded())))
        }
        if options.writeOrientation, orientation != .up {
            out += PNGChunkList.serialize("eXIf", EXIF.replacingOrientation(in: metadata.exif, with: orientation))
        } else if let exif = metadata.exif, !exif.isEmpty {
            // The stored orientation is not written (or is .up): never let a stale tag contradict it.
            let stale = EXIF.orientationValue(in: exif).map { $0 != 1 } ?? false
            out += PNGChunkList.serialize("eXIf", stale ? EXIF.replacingOrientation(in: exif, with: .up) : exif)
        }
        return out
    }

    /// The iCCP profile name (PNG §11.3.3.3: 1–79 printable Latin-1 characters, no leading or
    /// trailing space): the name the file was read with, else the profile's description, else
    /// "ICC profile".
    private static func iccName(_ metadata: ImageMetadata) -> String {
        let description = metadata.iccProfile.flatMap { ICCProfileSummary($0).description }
        for candidate in [metadata.properties["icc profile name"], description.map { String($0.prefix(79)) }] {
            if let name = candidate?.trimmingCharacters(in: .whitespaces), (1...79).contains(name.utf8.count),
               name.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) {
                return name
            }
        }
        return "ICC profile"
    }

    /// `png` with `chunks` placed right after its IHDR chunk (signature 8 + IHDR 25 bytes).
    static func inserting(_ chunks: [UInt8], afterIHDRof png: [UInt8]) -> [UInt8] {
        guard !chunks.isEmpty else { return png }
        return Array(png[0..<33]) + chunks + Array(png[33...])
    }
}
