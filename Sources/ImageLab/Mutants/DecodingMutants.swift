import ImageCorpus
import ImageCore

// The subtle mutants that read the source's samples with the wrong meaning: the bytes are
// decoded, the scale or polarity they are taken in is not the file's.

extension Mutant {
    /// Floating-point samples (full scale 1) read as if their full scale were 255.
    static let floatAs255 = Mutant(
        id: "float-as-255", topic: "value-range",
        title: "float samples read as 0…255 instead of 0…1 (float TIFFs come out near black)",
        history: "A floating-point TIFF (SampleFormat 3) stores light as 0…1, but code written for integer samples reads them on a 0…255 scale: SerenityOS's TIFF loader returned `static_cast<u8>(float)` for float samples (SerenityOS#23519, review: \"I'm surprised that floats aren't from 0.0 to 1.0 per channel\"), libvips takes a float image in the sRGB interpretation as 0…255 unless it is scRGB, and viewers show such files black (RootPainter3D#22 \"Input images with floats in [0,1] are displayed as all black\", sarepy#8). Every sample, alpha included, is divided by 255: the picture keeps its shape at 1/255 of its level (B9).",
        references: ["B9", "B1"], bugClass: "value-range", subtle: true,
        triggers: { pair in pair.record.pixelFormat.floatComponents },
        make: { base in
            MutantResizer(name: "float-as-255(\(base.name))", base: base) { base, operation, source throws(ResizerError) in
                guard source.format.isFloat else { return try base.apply(operation, to: source) }
                let misread = try source.mappingBitmaps { bitmap throws(ResizerError) in try SampleScale.divided(bitmap, by: 255) }
                return try base.apply(operation, to: misread)
            }
        })

    /// Adobe's inverted CMYK JPEG read as plain CMYK.
    static let adobeCMYKPlain = Mutant(
        id: "adobe-cmyk-plain", topic: "cmyk",
        title: "Adobe CMYK not inverted (a CMYK JPEG with the Adobe APP14 marker comes out as a negative)",
        history: "Photoshop writes CMYK JPEGs with inverted inks (255 = no ink) and marks them with an Adobe APP14 segment (libjpeg's libjpeg.txt: \"it appears that Adobe Photoshop writes inverted data in CMYK JPEG files\"); a decoder that ignores the marker reads the inks the wrong way round and shows a negative: sharp#1649 (\"negative colors\"), libvips#1283 (inverted-CMYK detection), Ladybird#6486 (when to invert CMYK), WeasyPrint#2179 (CMYK JPEGs inverted in PDFs) (B13). Here: the decoded Adobe CMYK relabelled as plain CMYK, the bytes unchanged.",
        references: ["B13", "B3"], bugClass: "cmyk-inversion", subtle: true,
        triggers: { pair in pair.record.pixelFormat.cmykInverted == true },
        make: { base in
            MutantResizer(name: "adobe-cmyk-plain(\(base.name))", base: base) { base, operation, source throws(ResizerError) in
                guard case .cmyk(inverted: true) = source.format.colorModel else { return try base.apply(operation, to: source) }
                let plain = try source.mappingBitmaps { bitmap throws(ResizerError) in
                    let f = bitmap.format
                    return try FrameRewrite.relabel(bitmap, as: PixelFormat(colorModel: .cmyk(inverted: false), bitsPerComponent: f.bitsPerComponent,
                                                                           alphaInfo: f.alphaInfo, byteOrder: f.byteOrder, isFloat: f.isFloat))
                }
                return try base.apply(operation, to: plain)
            }
        })
}

/// The sample arithmetic of ``Mutant/floatAs255``.
enum SampleScale {
    /// A floating-point `bitmap` as straight float RGBA with every stored sample divided by
    /// `factor` (alpha too when the format stores it).
    static func divided(_ bitmap: Bitmap, by factor: Float) throws(ResizerError) -> Bitmap {
        let rgba = try FrameRewrite.convert(bitmap, to: .rgbaFloat)
        let channels = bitmap.format.alphaInfo.hasAlpha ? 4 : 3
        var bytes = rgba.bytes
        bytes.withUnsafeMutableBytes { raw in
            for y in 0..<rgba.height {
                for x in 0..<rgba.width {
                    for k in 0..<channels {
                        let o = y * rgba.bytesPerRow + 16 * x + 4 * k
                        // PixelFormat.rgbaFloat is host order.
                        raw.storeBytes(of: raw.loadUnaligned(fromByteOffset: o, as: Float.self) / factor, toByteOffset: o, as: Float.self)
                    }
                }
            }
        }
        return Bitmap(uncheckedWidth: rgba.width, height: rgba.height, format: .rgbaFloat, bytesPerRow: rgba.bytesPerRow, bytes: bytes)
    }
}
