import Foundation
import Testing
import ImageCore
import ImageCodecs
@testable import ImageMetrics

/// What an unnamed difference is said to be (plain noise, a JPEG saved again losslessly, or
/// nothing), and the ranking as listed: the named candidate first, only candidates that explain
/// a tenth, a strength only where one was fitted, a close runner-up stated.
@Suite("diagnosis statements and ranking")
struct DiagnosisStatementTests {
    /// A 256 × 192 RGB picture with smooth waves and fine texture (a deterministic hash), so its
    /// blocks carry low-frequency detail as a photograph's do.
    static let picture: Bitmap = {
        var bytes: [UInt8] = []
        for y in 0..<192 {
            for x in 0..<256 {
                var h = UInt32(truncatingIfNeeded: x &* 73_856_093) ^ UInt32(truncatingIfNeeded: y &* 19_349_663)
                h = (h ^ (h >> 13)) &* 1_274_126_177
                let texture = Double(h % 41) - 20
                for c in 0..<3 {
                    let wave = 60 * sin(Double(x) / Double(7 + c)) * cos(Double(y) / Double(5 + 2 * c))
                    bytes.append(UInt8(clamping: Int((128 + wave + texture).rounded())))
                }
            }
        }
        return Bitmap(uncheckedWidth: 256, height: 192, format: .rgb8, bytesPerRow: 256 * 3, bytes: bytes)
    }()

    static func diagnose(_ expected: Bitmap, _ actual: Bitmap) -> Diagnosis { pairDiagnosis(expected, actual) }

    /// Uniform integer noise in −3…3 has σ = √(((2·3 + 1)² − 1) / 12) = 2 codes.
    @Test("uniform noise of ±3 codes is said to be noise of σ 2.0 and given no class, no ranking, no re-encoding")
    func noiseIsSaidToBeNoise() throws {
        let d = Self.diagnose(Self.picture, try Bugs.noisy(Self.picture, amplitude: 3))
        #expect(d.bugClass == nil, "\(d.summary)")
        let sigma = try #require(d.noise, "\(d.summary)")
        #expect(abs(sigma - 2) <= 0.1)
        #expect(d.reEncoding == nil && d.ranking.isEmpty, "\(d.summary)")
        #expect(d.summary.hasPrefix("noise (σ 2.0 codes"), "\(d.summary)")
        #expect(d.summary.contains("explains a tenth of the difference"), "\(d.summary)")
    }

    @Test("a JPEG decoded and kept as pixels is said to be re-encoded, JPEG-like, at its quality within 5",
          arguments: [35, 50, 65, 80])
    func jpegLikeGridIsRead(quality: Int) throws {
        let d = Self.diagnose(Self.picture, try Bugs.jpeg(Self.picture, quality: quality))
        #expect(d.bugClass == nil, "\(d.summary)")
        let said = try #require(d.reEncoding, "\(d.summary)")
        let number = try #require(Int(said.replacingOccurrences(of: "JPEG-like, quality about ", with: "")), "\(said)")
        #expect(abs(number - quality) <= 5, "\(said)")
        #expect(d.noise == nil)
    }

    @Test("a picture that never went through JPEG shows no block grid, whatever its texture")
    func noGridWithoutJPEG() {
        #expect(BlockGridSignature(ValueImage(Image(bitmap: Self.picture), withAlpha: false)).quality == nil)
    }

    /// A 3 × 3 box blur moves only edges and textured pixels, and neighbouring errors alike.
    @Test("a blur is neither noise nor a re-encoding")
    func blurIsNotNoise() throws {
        let w = 256, h = 192
        var out = Self.picture.bytes
        for y in 1..<(h - 1) {
            for x in 1..<(w - 1) {
                for c in 0..<3 {
                    var sum = 0
                    for dy in -1...1 { for dx in -1...1 { sum += Int(Self.picture.bytes[((y + dy) * w + x + dx) * 3 + c]) } }
                    out[(y * w + x) * 3 + c] = UInt8((Double(sum) / 9).rounded())
                }
            }
        }
        let d = Self.diagnose(Self.picture, try Bitmap(width: w, height: h, format: .rgb8, bytes: out))
        #expect(d.noise == nil && d.reEncoding == nil, "\(d.summary)")
    }

    @Test("a named diagnosis lists itself first and only candidates that explain a tenth; exact candidates carry no strength")
    func rankingIsHonest() throws {
        let swapped = try Bugs.permute(Self.picture, [2, 1, 0])
        let d = Self.diagnose(Self.picture, swapped)
        #expect(d.bugClass == "channel-order", "\(d.summary)")
        #expect(d.ranking.first?.id == d.candidate)
        #expect(d.ranking.allSatisfy { $0.explained >= Diagnosis.listedShare || $0.id == d.candidate })
        #expect(d.ranking.first?.strength == nil)
    }

    @Test("a runner-up of another class within a fifth of the named candidate is stated; a distant one is not")
    func closeRunnerUpIsStated() {
        func named(_ explained: Double) -> Diagnosis {
            var d = Diagnosis.none("x")
            d.bugClass = "pixel-shift"; d.candidate = "geometry.translation"; d.explained = explained; d.summary = "shifted"
            return d
        }
        let rival = Diagnosis.CandidateScore(id: "colour.matrix", bugClass: "colour-matrix", name: "m", explained: 0.65, strength: nil)
        var close = named(0.8)
        close.noteRunnerUp(rival)
        #expect(close.runnerUp == "colour.matrix" && close.summary == "shifted; runner-up: colour.matrix (colour-matrix) explains 65%")
        var distant = named(0.9)
        distant.noteRunnerUp(rival)
        #expect(distant.runnerUp == nil && distant.summary == "shifted")
    }
}
