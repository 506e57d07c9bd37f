import Foundation
import ImageCore
import ImageCodecs
@testable import ImageLab
@testable import ImageCorpus

/// The quick profile generated once per test process (two threads), shared by the suites.
enum QuickCorpus {
    static let generated: GeneratedCorpus = {
        do { return try CorpusGenerator.generate(.quick, threads: 2) } catch {
            fatalError("the quick corpus cannot be generated: \(error)")
        }
    }()

    /// The package root (three levels above this file).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Cases with their manifest records, by case id.
    static var pairs: [(CorpusCase, CaseRecord)] { Array(zip(generated.cases, generated.manifest.cases)) }

    static func decode(_ path: String) throws -> Image {
        guard let bytes = generated.files[path] else { throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: path]) }
        return try ImageCodecs.decode(bytes)
    }
}

/// Pixel comparisons in the manifest's terms: α and α·C′ (straight sRGB-encoded colour times
/// alpha), 0…1.
enum PixelCompare {
    /// The largest |Δ| of α·C′ and α over all pixels; nil when the sizes differ.
    static func maxPremultipliedDifference(_ a: Bitmap, _ b: Bitmap) -> Double? {
        guard a.width == b.width, a.height == b.height else { return nil }
        var worst = 0.0
        for y in 0..<a.height {
            let ra = a.straightRGBARow(y), rb = b.straightRGBARow(y)
            for x in 0..<a.width {
                let aa = ra[x * 4 + 3], ab = rb[x * 4 + 3]
                worst = max(worst, abs(aa - ab))
                for c in 0..<3 { worst = max(worst, abs(ra[x * 4 + c] * aa - rb[x * 4 + c] * ab)) }
            }
        }
        return worst
    }

    /// PSNR in dB of α·C′ (8-bit scale, peak 255) between two bitmaps of one size, over R, G
    /// and B, or over Rec. 601 luma `0.299 R′ + 0.587 G′ + 0.114 B′` when `luma`.
    static func psnr(_ a: Bitmap, _ b: Bitmap, luma: Bool = false) -> Double {
        var sum = 0.0
        var count = 0
        for y in 0..<a.height {
            let ra = a.straightRGBARow(y), rb = b.straightRGBARow(y)
            for x in 0..<a.width {
                var d = [0.0, 0.0, 0.0]
                for c in 0..<3 { d[c] = (ra[x * 4 + c] * ra[x * 4 + 3] - rb[x * 4 + c] * rb[x * 4 + 3]) * 255 }
                if luma {
                    let dy = 0.299 * d[0] + 0.587 * d[1] + 0.114 * d[2]
                    sum += dy * dy; count += 1
                } else {
                    sum += d[0] * d[0] + d[1] * d[1] + d[2] * d[2]; count += 3
                }
            }
        }
        let mse = sum / Double(count)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }
}
