import Foundation
import Testing
import ImageCore
import ImageCodecs
import ImageResize

/// Shrink-on-load in ``FileResize``: a box resize decodes a JPEG at the largest DCT scale 1/d
/// that still leaves at least a factor of two for the resample, over the stored region the
/// operation reads and in stored axes. Expected denominators are worked out by hand below.
@Suite("FileResize decodes a JPEG at the DCT scale that leaves a factor of two")
struct ResizeShrinkOnLoadTests {
    static func temporaryPath(_ ext: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("imglab-shrink-\(UUID().uuidString).\(ext)").path
    }

    /// A smooth 1600×1200 RGB picture stored with `orientation`, written as `container`.
    static func writeSource(_ container: ContainerFormat, orientation: Orientation = .up) throws -> String {
        let width = 1600, height = 1200
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                bytes[i] = UInt8(x * 255 / (width - 1))
                bytes[i + 1] = UInt8(y * 255 / (height - 1))
                bytes[i + 2] = 128
            }
        }
        let image = Image(bitmap: try Bitmap(width: width, height: height, format: .rgb8, bytes: bytes), orientation: orientation)
        let path = temporaryPath(container.fileExtension)
        try Data(try ImageCodecs.encode(image, as: container)).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("the denominator is the largest of 8, 4, 2 with region / d ≥ 2 · target on both axes, else 1")
    func denominatorArithmetic() {
        // 6000×4000 fit 800×600 → 800×533 (4000 · 800 / 6000 = 533.3). d = 8: 750 ≥ 1600? no.
        // d = 4: 1500 ≥ 1600? no. d = 2: 3000 ≥ 1600 and 2000 ≥ 1066 → 2.
        #expect(FileResize.jpegScaleDenominator(region: (6000, 4000), target: (800, 533)) == 2)
        // 6000×4000 fit 256×256 → 256×171: d = 8: 750 ≥ 512 and 500 ≥ 342 → 8.
        #expect(FileResize.jpegScaleDenominator(region: (6000, 4000), target: (256, 171)) == 8)
        // 6000×4000 fill 256×256 (centre): region 4000×4000. d = 8: 500 ≥ 512? no. d = 4: 1000 ≥ 512 → 4.
        #expect(FileResize.jpegScaleDenominator(region: (4000, 4000), target: (256, 256)) == 4)
        // Exactly a factor of two left counts: 1600 / 8 = 200 = 2 · 100 → 8.
        #expect(FileResize.jpegScaleDenominator(region: (1600, 1600), target: (100, 100)) == 8)
        // Just under: 1599 / 8 = 199.9 < 200; 1599 / 4 = 399.75 ≥ 200 → 4.
        #expect(FileResize.jpegScaleDenominator(region: (1599, 1600), target: (100, 100)) == 4)
        // One axis limits: 6000×1000 → 600×200. d = 4: 1500 ≥ 1200 but 250 ≥ 400? no. d = 2: 3000 ≥ 1200, 500 ≥ 400 → 2.
        #expect(FileResize.jpegScaleDenominator(region: (6000, 1000), target: (600, 200)) == 2)
        // Less than 2× in all: 1000 / 2 = 500 < 2 · 300 → 1; enlarging → 1.
        #expect(FileResize.jpegScaleDenominator(region: (1000, 1000), target: (300, 300)) == 1)
        #expect(FileResize.jpegScaleDenominator(region: (100, 100), target: (300, 300)) == 1)
    }

    @Test("every content mode reads a 1600×1200 JPEG at the denominator its stored target allows")
    func contentModes() throws {
        let path = try Self.writeSource(.jpeg)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let cases: [(mode: ContentMode, width: Int, height: Int, denominator: Int, size: (Int, Int))] = [
            // fit 200×150 → 200×150. d = 8: 200 ≥ 400? no. d = 4: 400 ≥ 400, 300 ≥ 300 → 4.
            (ContentMode.aspectFit, 200, 150, 4, (200, 150)),
            // fill 100×100 anchored left: region 1200×1200. d = 8: 150 ≥ 200? no. d = 4: 300 ≥ 200 → 4.
            (ContentMode.aspectFill(anchor: .left), 100, 100, 4, (100, 100)),
            // scaleToFill 400×100: d = 4: 400 ≥ 800? no. d = 2: 800 ≥ 800, 600 ≥ 200 → 2.
            (ContentMode.scaleToFill, 400, 100, 2, (400, 100)),
            // fill without crop 100×100: covers as 133×100 (1600 / 12 = 133.3). d = 8: 200 ≥ 266? no.
            // d = 4: 400 ≥ 266, 300 ≥ 200 → 4.
            (ContentMode.aspectFillWithoutCrop, 100, 100, 4, (133, 100)),
            // fit 1000×1000 → 1000×750: d = 2: 800 ≥ 2000? no → 1.
            (ContentMode.aspectFit, 1000, 1000, 1, (1000, 750)),
        ]
        for (mode, width, height, denominator, size) in cases {
            let rows = try FileResize.rows(path: path, width: width, height: height, contentMode: mode)
            #expect(rows.denominator == denominator, "\(mode) \(width)×\(height)")
            #expect((rows.storedWidth, rows.storedHeight) == (1600, 1200))
            // libjpeg delivers ⌈1600 / d⌉ × ⌈1200 / d⌉.
            #expect((rows.reader.width, rows.reader.height) == ((1600 + denominator - 1) / denominator, (1200 + denominator - 1) / denominator))
            let result = try FileResize.resized(path: path, width: width, height: height, contentMode: mode)
            #expect((result.width, result.height) == size, "\(mode) \(width)×\(height)")
            #expect(result.metadata.properties["jpeg.scale"] == (denominator > 1 ? "1/\(denominator)" : nil))
        }
    }

    @Test("the EXIF orientation is applied to the box before the denominator is chosen (stored vs displayed axes)")
    func orientation() throws {
        let path = try Self.writeSource(.jpeg, orientation: .right)
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Displayed 1200×1600 fits 300×100 as 75×100, stored 100×75.
        // d = 8: 1600 / 8 = 200 ≥ 2 · 100 and 1200 / 8 = 150 ≥ 2 · 75 → 8. (Taking the displayed
        // 75×100 as stored would give d = 4: 150 ≥ 200 fails at 8.)
        let rows = try FileResize.rows(path: path, width: 300, height: 100, contentMode: .aspectFit)
        #expect(rows.denominator == 8)
        let result = try FileResize.resized(path: path, width: 300, height: 100, contentMode: .aspectFit)
        #expect((result.width, result.height, result.orientation) == (75, 100, .up))
    }

    @Test("a PNG, and an image already inside the box with only-shrink, are read at full size")
    func fullSize() throws {
        let png = try Self.writeSource(.png), jpeg = try Self.writeSource(.jpeg)
        defer { [png, jpeg].forEach { try? FileManager.default.removeItem(atPath: $0) } }
        #expect(try FileResize.rows(path: png, width: 100, height: 100, contentMode: .aspectFit).denominator == 1)
        let keep = ResizeOptions(onlyShrink: true)
        #expect(try FileResize.rows(path: jpeg, width: 2000, height: 2000, contentMode: .aspectFit, options: keep).denominator == 1)
    }

    @Test("a box resize with shrink-on-load stays within two 8-bit codes of the same resize from the full decode on a smooth picture")
    func closeToFullDecode() throws {
        let path = try Self.writeSource(.jpeg)
        defer { try? FileManager.default.removeItem(atPath: path) }
        for mode in [ContentMode.aspectFit, .aspectFill(anchor: .right), .scaleToFill] {
            let scaled = try FileResize.resized(path: path, width: 200, height: 150, contentMode: mode)
            let full = try FileResize.resized(ScaledRows(reader: try ImageCodecs.rowReader(path: path)), width: 200, height: 150, contentMode: mode)
            #expect(scaled.metadata.properties["jpeg.scale"] != nil)
            #expect(scaled.bitmap.format == full.bitmap.format && scaled.bitmap.bytes.count == full.bitmap.bytes.count)
            let worst = zip(scaled.bitmap.bytes, full.bitmap.bytes).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(worst <= 2, "\(mode): worst difference \(worst) codes")
        }
    }
}
