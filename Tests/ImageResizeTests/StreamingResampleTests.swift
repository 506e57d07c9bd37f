import Foundation
import Testing
import ImageCore
import ImageCodecs
@testable import ImageResize

/// The production (streaming, table-driven) resampler against the reference path
/// (`Resample` over `WorkingImage`, exact conversions): they must agree to within one code.
@Suite("Streaming resample")
struct StreamingResampleTests {
    static func picture(_ format: PixelFormat, width: Int = 37, height: Int = 23) throws -> Bitmap {
        var rgba = try Bitmap(width: width, height: height, format: .rgba16)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 8
                let v = [(x * 1777 + y * 91) % 65536, (y * 2861) % 65536, ((x * y) * 331) % 65536, x < 3 ? 0 : (x * 65535 / (width - 1))]
                for c in 0..<4 { rgba.bytes[i + 2 * c] = UInt8(v[c] >> 8); rgba.bytes[i + 2 * c + 1] = UInt8(v[c] & 0xFF) }
            }
        }
        return try rgba.converted(to: format)
    }

    /// Largest difference in stored codes between two bitmaps of one format (premultiplied
    /// formats compare their stored, premultiplied codes).
    static func maxCodeDifference(_ a: Bitmap, _ b: Bitmap) throws -> Int {
        if a.format == b.format, a.format.bitsPerComponent == 8 || a.format.bitsPerComponent == 16 {
            let x = a.tightlyPacked().bytes, y = b.tightlyPacked().bytes
            if a.format.bitsPerComponent == 8 { return zip(x, y).map { abs(Int($0) - Int($1)) }.max() ?? 0 }
            let little = a.format.byteOrder == .little16
            func word(_ b: [UInt8], _ i: Int) -> Int { little ? Int(b[i]) | Int(b[i + 1]) << 8 : Int(b[i]) << 8 | Int(b[i + 1]) }
            var worst = 0
            for i in stride(from: 0, to: x.count, by: 2) { worst = max(worst, abs(word(x, i) - word(y, i))) }
            return worst
        }
        let x = try a.converted(to: .rgba16), y = try b.converted(to: .rgba16)
        var worst = 0
        for i in stride(from: 0, to: x.bytes.count, by: 2) {
            let u = Int(x.bytes[i]) << 8 | Int(x.bytes[i + 1]), v = Int(y.bytes[i]) << 8 | Int(y.bytes[i + 1])
            worst = max(worst, abs(u - v))
        }
        // Express in codes of the format: 257 sixteen-bit units are one 8-bit code.
        return a.format.bitsPerComponent == 16 ? worst : (worst + 256) / 257
    }

    static let formats: [(String, PixelFormat)] = [
        ("rgb8", .rgb8), ("rgba8", .rgba8), ("rgba8 premultiplied", .rgba8Premultiplied), ("bgra8", .bgra8Premultiplied),
        ("gray8", .gray8), ("gray+alpha8", .grayAlpha8), ("rgb16", .rgb16), ("rgba16", .rgba16),
        ("gray16 little", PixelFormat(colorModel: .gray, bitsPerComponent: 16, byteOrder: .little16)),
        ("cmyk8 (general path)", .cmyk8),
    ]

    @Test("agrees with the reference path within one code", arguments: 0..<10)
    func agreesWithReference(index: Int) throws {
        let (name, format) = Self.formats[index]
        let bitmap = try Self.picture(format)
        let out = OutputFormat.result(for: format)
        for kernel in Kernel.presets {
            for space in LightSpace.allCases {
                for (w, h) in [(11, 7), (37, 23), (80, 50), (5, 40)] {
                    let reference = try Resample.resample(WorkingImage(bitmap, lightSpace: space), width: w, height: h, kernel: kernel)
                        .bitmap(format: out)
                    let streamed = try StreamingResample.resample(BitmapRowReader(bitmap), width: w, height: h, kernel: kernel,
                                                                  lightSpace: space, format: out)
                    let d = try Self.maxCodeDifference(reference, streamed)
                    // 16-bit output from 8/16-bit tables: a few 16-bit units; 8-bit: one code.
                    #expect(d <= (out.bitsPerComponent == 16 ? 4 : 1), "\(name) \(kernel.name) \(space) → \(w)×\(h): off by \(d)")
                }
            }
        }
    }

    /// The plan's forms (a row converted in chunks, running sums or a ring for the vertical
    /// filter, weights from a table or computed) must give the same bytes: the same sums in the
    /// same order. Sizes that shrink, enlarge and crop; a 1-bit gray and a 4-bit palette source
    /// exercise chunks that start inside a byte's worth of pixels.
    @Test("every form of the streaming plan gives the same bytes: chunked rows, running sums, ring, computed weights",
          arguments: 0..<4)
    func planFormsAgreeExactly(index: Int) throws {
        var entries: [Palette.Entry] = []
        for i in 0..<16 { entries.append(Palette.Entry(red: UInt8(i * 16), green: UInt8(255 - i * 9), blue: 77, alpha: UInt8(255 - i))) }
        let palette = Palette(entries)
        let sources: [(String, PixelFormat)] = [
            ("rgba8", .rgba8), ("rgb16", .rgb16),
            ("gray1", PixelFormat(colorModel: .gray, bitsPerComponent: 1, alphaInfo: .none)),
            ("palette4", PixelFormat(colorModel: .indexed(palette), bitsPerComponent: 4, alphaInfo: .none)),
        ]
        let (name, format) = sources[index]
        // Sub-byte formats from raw bytes (every 1-bit value and 4-bit index is valid).
        let bitmap = format.bitsPerComponent < 8
            ? try Bitmap(width: 203, height: 61, format: format,
                         bytes: (0..<(format.minimumBytesPerRow(width: 203) * 61)).map { (i: Int) -> UInt8 in UInt8(truncatingIfNeeded: i &* 73 &+ i >> 5) })
            : try Self.picture(format, width: 203, height: 61)
        let out = OutputFormat.result(for: format)
        let cases: [(Int, Int, (x: Double, y: Double, width: Double, height: Double)?)] = [
            (13, 5, nil), (203, 7, nil), (17, 61, nil), (410, 150, nil), (29, 11, (10.5, 3.25, 150, 40)), (1, 1, nil)]
        for (w, h, source) in cases {
            let planned = try StreamingResample.resample(BitmapRowReader(bitmap), width: w, height: h, kernel: .lanczos3,
                                                         lightSpace: .linear, format: out, source: source, plan: { $0 })
            let forms: [(String, (StreamingPlan) -> StreamingPlan)] = [
                ("chunks of 16 pixels", { $0.forcing(chunkPixels: 16) }),
                ("running sums", { $0.forcing(vertical: .runningSums) }),
                ("ring", { $0.forcing(vertical: .ring) }),
                ("computed weights", { $0.forcing(weightTableFloats: 0) }),
                ("all at once", { $0.forcing(chunkPixels: 8, vertical: .runningSums, weightTableFloats: 0) }),
            ]
            for (form, adjust) in forms {
                let other = try StreamingResample.resample(BitmapRowReader(bitmap), width: w, height: h, kernel: .lanczos3,
                                                           lightSpace: .linear, format: out, source: source, plan: adjust)
                #expect(other.bytes == planned.bytes, "\(name) → \(w)×\(h) \(source.map { "\($0)" } ?? ""): \(form) differs")
            }
        }
    }

    @Test("a reduction plans running sums of a few rows and an enlargement a ring; a 2,000,000-pixel row is converted in chunks")
    func planShapes() {
        let reduce = StreamingPlan(inputWidth: 1, inputHeight: 16_000_000, inputFormat: .gray8, outputWidth: 1, outputHeight: 64,
                                   outputFormat: .gray8, kernel: .lanczos3)
        #expect(reduce.vertical == .runningSums)
        // Lanczos 3 reaches 3 × 250,000 rows each side: outputs 250,000 rows apart share a row with at most 6 others (+3 spare).
        #expect(reduce.verticalRows <= 10)
        #expect(reduce.bytes < 1 << 20, "\(reduce.bytes) bytes")
        let enlarge = StreamingPlan(inputWidth: 100, inputHeight: 100, inputFormat: .rgb8, outputWidth: 1000, outputHeight: 1000,
                                    outputFormat: .rgb8, kernel: .lanczos3)
        #expect(enlarge.vertical == .ring)
        let wide = StreamingPlan(inputWidth: 2_000_000, inputHeight: 1, inputFormat: .rgb8, outputWidth: 64, outputHeight: 1,
                                 outputFormat: .rgb8, kernel: .lanczos3)
        #expect(wide.chunkPixels == StreamingPlan.chunkPixels && wide.batchRows == 1)
        // Two stored rows for the reader, three batches of one, a chunk of floats: under 40 MB, not the 1 GB of 32 float rows.
        #expect(wide.bytes < 40_000_000, "\(wide.bytes) bytes")
    }

    @Test("a crop rectangle streams like the reference")
    func sourceRectangle() throws {
        let bitmap = try Self.picture(.rgba8)
        let source = (x: 3.5, y: 2.25, width: 20.0, height: 13.0)
        let reference = try Resample.resample(WorkingImage(bitmap), width: 9, height: 6, kernel: .lanczos3, source: source).bitmap(format: .rgba8)
        let streamed = try StreamingResample.resample(BitmapRowReader(bitmap), width: 9, height: 6, kernel: .lanczos3,
                                                      lightSpace: .linear, format: .rgba8, source: source)
        #expect(try Self.maxCodeDifference(reference, streamed) <= 1)
    }

    /// Writes `bitmap` with orientation `o` as a file of `container`.
    static func file(_ bitmap: Bitmap, _ o: Orientation, _ container: ContainerFormat) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("stream-\(UUID().uuidString).\(container.fileExtension)").path
        var options = EncodeOptions()
        options.jpegQuality = 100
        options.jpegSubsampling = .s444
        try Data(try ImageCodecs.encode(Image(bitmap: bitmap, orientation: o), as: container, options: options)).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("resizing from a file equals decoding then resizing, for every orientation and content mode",
          arguments: Orientation.allCases)
    func fileEqualsDecoded(o: Orientation) throws {
        let bitmap = try Self.picture(.rgb8, width: 41, height: 26)
        let modes: [ContentMode] = [.scaleToFill, .aspectFit, .aspectFill(), .aspectFill(anchor: .top), .aspectFillWithoutCrop]
        for container in [ContainerFormat.png, .jpeg, .tiff, .bmp] {
            let path = try Self.file(bitmap, o, container)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let decoded = try ImageCodecs.decode(contentsOf: path)
            for mode in modes {
                let a = try FileResize.resized(path: path, width: 17, height: 12, contentMode: mode)
                let b = try decoded.resized(width: 17, height: 12, contentMode: mode)
                #expect((a.width, a.height) == (b.width, b.height), "\(container) \(o) \(mode)")
                #expect(a.orientation == .up)
                if (a.width, a.height) == (b.width, b.height) {
                    #expect(try Self.maxCodeDifference(a.bitmap, b.bitmap) <= 1, "\(container) \(o) \(mode)")
                }
            }
        }
    }

    @Test("the streaming thumbnail equals the in-memory one and is upright, for JPEG, PNG, TIFF and BMP",
          arguments: [ContainerFormat.jpeg, .png, .tiff, .bmp])
    func thumbnails(container: ContainerFormat) throws {
        let bitmap = try Self.picture(.rgb8, width: 64, height: 40)
        // BMP stores no orientation: its file is always upright.
        for o in container == .bmp ? [Orientation.up] : [Orientation.up, .right, .leftMirrored] {
            let path = try Self.file(bitmap, o, container)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let streamed = try MaxPixelSizeThumbnail.thumbnail(atPath: path, maxPixelSize: 16)
            let inMemory = try MaxPixelSizeThumbnail.thumbnail(of: ImageCodecs.readFile(path), maxPixelSize: 16)
            let expected = o.swapsDimensions ? (10, 16) : (16, 10)
            #expect((streamed.width, streamed.height) == expected)
            #expect(streamed.orientation == .up)
            #expect(try Self.maxCodeDifference(streamed.bitmap, inMemory.bitmap) <= 1, "\(o)")
        }
    }
}
