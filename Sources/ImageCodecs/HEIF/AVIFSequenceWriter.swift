import CImageShim
import ImageCore

/// Writes an animated image as an AVIF image sequence with libavif's encoder (libaom on Debian): a still item of the
/// first frame and a picture track of every frame's canvas, each shown for its delay (milliseconds). Lossless by
/// default (4:4:4, the identity matrix: the decoded samples equal the ones given), lossy at `options.heifQuality`
/// (the AV1 quantizer (100 − quality) · 63 / 100, at least 1). Frames are turned upright (the track has no
/// orientation of its own), 8-bit, or 10/12-bit from 16-bit canvases; the alpha straight or premultiplied as given.
/// libavif 0.11 writes no edit list, so readers loop the sequence forever whatever `loopCount` says.
enum AVIFSequenceWriter {
    static func encode(_ image: Image, frames: [AnimationFrame], bits: Int, options: EncodeOptions) throws(EncodeError) -> [UInt8] {
        let (available, reason) = AVIFSequenceReader.availability
        guard available else { throw .library(.avif, "image sequences: \(reason)") }
        let format = image.bitmap.format, deep = bits > 8
        let premultiplied = format.alphaInfo == .premultipliedLast || format.alphaInfo == .premultipliedFirst
        let target = PixelFormat(colorModel: .rgb, bitsPerComponent: deep ? 16 : 8,
                                 alphaInfo: !format.hasAlpha ? .none : premultiplied ? .premultipliedLast : .last)
        var samples: [UInt8] = [], width = 0, height = 0
        for frame in frames {
            let upright = image.orientation == .up ? frame.canvas : image.orientation.apply(to: frame.canvas)
            let converted: Bitmap
            do { converted = upright.format == target ? upright : try upright.converted(to: target) } catch {
                throw .unsupportedFormat(.avif, upright.format, suggestion: "convert to RGB or RGBA first (\(error))")
            }
            guard samples.isEmpty || (converted.width == width && converted.height == height) else {
                throw .invalidOption("the frames of an AVIF sequence must all be \(width)×\(height)")
            }
            (width, height) = (converted.width, converted.height)
            samples += deep ? HEIFEncoder.littleEndian(converted, bits: bits) : packed(converted)
        }
        let stride = width * target.slotCount * (deep ? 2 : 1)
        let durations = frames.map { UInt32(clamping: Int(($0.delay * 1000).rounded())) }
        let quantizer = quantizer(options)
        var output: UnsafeMutablePointer<UInt8>?
        var why = [CChar](repeating: 0, count: 512)
        let size = samples.withUnsafeBufferPointer { pixels in
            durations.withUnsafeBufferPointer { delays in
                imglab_avif_encode_sequence(pixels.baseAddress, Int32(width), Int32(height), Int32(stride), Int32(target.slotCount),
                                            Int32(bits), premultiplied ? 1 : 0, Int32(frames.count), delays.baseAddress,
                                            Int32(quantizer), &output, &why, why.count)
            }
        }
        guard size > 0, let output else {
            let text = String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw .library(.avif, "libavif could not encode the \(frames.count)-frame \(width)×\(height) sequence: \(text)")
        }
        defer { imglab_avif_free(output) }
        return timesCleared(Array(UnsafeBufferPointer(start: output, count: size)))
    }

    /// The AV1 quantizer of `options.heifQuality`: (100 − quality) · 63 / 100, at least 1; 0 (lossless) without one.
    static func quantizer(_ options: EncodeOptions) -> Int {
        options.heifQuality.map { max(1, Int((Double(100 - $0) * 63 / 100).rounded())) } ?? 0
    }

    /// The file with the creation and modification times of `mvhd`, every `tkhd` and `mdhd` set to 0 (libavif
    /// writes the clock's), so that the same image gives the same bytes on every run.
    static func timesCleared(_ file: [UInt8]) -> [UInt8] {
        var file = file
        func clear(_ box: HEIFStructure.Box) {
            guard box.end - box.payload >= 20 else { return }
            let count = file[box.payload] == 1 ? 16 : 8  // version 1: two 64-bit times, else two 32-bit ones
            for i in box.payload + 4..<box.payload + 4 + count { file[i] = 0 }
        }
        func walk(_ boxes: [HEIFStructure.Box]) {
            for box in boxes {
                switch box.type {
                case "mvhd", "tkhd", "mdhd": clear(box)
                case "moov", "trak", "mdia":
                    walk((try? HEIFStructure.boxes(file, .avif, from: box.payload, to: box.end)) ?? [])
                default: break
                }
            }
        }
        walk((try? HEIFStructure.boxes(file, .avif, from: 0, to: file.count)) ?? [])
        return file
    }

    /// The rows without padding.
    private static func packed(_ bitmap: Bitmap) -> [UInt8] {
        let row = bitmap.width * bitmap.format.bitsPerPixel / 8
        guard bitmap.bytesPerRow != row else { return bitmap.bytes }
        return (0..<bitmap.height).flatMap { y in bitmap.bytes[y * bitmap.bytesPerRow..<y * bitmap.bytesPerRow + row] }
    }
}
