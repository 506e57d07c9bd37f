import ImageCore
import ImageCorpus

/// How far a resizer's output is from a design's rendering (``KernelOracle``), in 8-bit code
/// values of sRGB-encoded colour weighted by alpha (so colour under α = 0 does not count), and
/// the designs of a shrink and an enlargement fitted to it.
struct DesignFit {
    /// One output read as straight, sRGB-encoded RGBA, 0…1, row by row.
    struct Pixels {
        var width: Int
        var height: Int
        var values: [Double]

        /// The displayed pixels of `image` (orientation applied), or `nil` when they cannot be read.
        init?(_ image: Image) {
            let upright = image.oriented().bitmap
            guard let float = try? upright.converted(to: .rgbaFloat) else { return nil }
            width = float.width
            height = float.height
            values = float.bytes.withUnsafeBytes { raw in
                raw.bindMemory(to: Float.self).map { $0.isFinite ? Double($0) : 0 }
            }
        }

        init(_ oracle: OracleImage) {
            width = oracle.width
            height = oracle.height
            values = []
            values.reserveCapacity(width * height * 4)
            for y in 0..<height {
                for x in 0..<width {
                    let p = oracle.encodedPixel(x: x, y: y)
                    values += [p.red, p.green, p.blue, p.alpha]
                }
            }
        }

        /// The same pixels with red and blue exchanged.
        var swappingRedAndBlue: Pixels {
            var p = self
            for i in stride(from: 0, to: values.count, by: 4) { p.values.swapAt(i, i + 2) }
            return p
        }
    }

    /// The mean absolute difference (code values, 0…255) of α-weighted colour and of α, and the
    /// mean signed difference of colour on opaque pixels (`actual − expected`); `nil` for
    /// different sizes.
    static func distance(_ actual: Pixels, _ expected: Pixels) -> (mean: Double, bias: Double)? {
        guard actual.width == expected.width, actual.height == expected.height, !actual.values.isEmpty else { return nil }
        var sum = 0.0, signed = 0.0, opaque = 0
        for i in stride(from: 0, to: actual.values.count, by: 4) {
            let a = actual.values[i + 3], e = expected.values[i + 3]
            for c in 0..<3 {
                sum += abs(actual.values[i + c] * a - expected.values[i + c] * e)
                if a > 0.999 && e > 0.999 { signed += actual.values[i + c] - expected.values[i + c] }
            }
            if a > 0.999 && e > 0.999 { opaque += 3 }
            sum += abs(a - e)
        }
        return (sum / Double(actual.values.count) * 255, opaque > 0 ? signed / Double(opaque) * 255 : 0)
    }

    /// Where output pixel centres are: at `(i + ½)·scale` (right), or at `i·scale` on both axes
    /// or across only (the half-pixel bug, an offset of `−½·scale` source pixels).
    enum Centres: String, CaseIterable, Sendable {
        case aligned, halfPixel, halfPixelAcross

        /// The design's centre offset for a resample of `scale` source pixels per output pixel.
        func offset(scale: (x: Double, y: Double)) -> (x: Double, y: Double) {
            switch self {
            case .aligned: return (0, 0)
            case .halfPixel: return (-0.5 * scale.x, -0.5 * scale.y)
            case .halfPixelAcross: return (-0.5 * scale.x, 0)
            }
        }
    }

    /// A candidate design: the oracle's design and where its pixel centres are.
    struct Candidate: Sendable {
        var design: KernelOracle.Design
        var centres: Centres

        /// The design for a resample of `scale`.
        func design(scale: (x: Double, y: Double)) -> KernelOracle.Design {
            var d = design
            d.centreOffset = centres.offset(scale: scale)
            return d
        }
    }

    /// The designs tried: every kernel, three transfer curves, widened or fixed support, three
    /// edge rules and three pixel-centre conventions.
    static var candidates: [Candidate] {
        var all: [Candidate] = []
        for kernel in DeclaredKernel.allCases {
            for (light, gamma) in [(LightSpace.linear, nil as Double?), (.srgb, nil), (.linear, 2.2)] {
                for widens in [true, false] where widens || kernel != .nearest {
                    for edge in EdgeRule.allCases {
                        for centres in Centres.allCases {
                            var d = KernelOracle.Design(kernel: kernel, lightSpace: light, edge: edge)
                            d.gamma = gamma
                            d.widensWhenShrinking = widens
                            all.append(Candidate(design: d, centres: centres))
                        }
                    }
                }
            }
        }
        return all
    }

    /// A candidate and its distance from the outputs it was fitted to.
    struct Scored {
        var candidate: Candidate
        var distance: Double
        var bias: Double
        /// The design (centres at scale 1).
        var design: KernelOracle.Design { candidate.design }
    }

    /// The rendering of `source` under `operation` by `candidate`, or `nil` when it cannot be made.
    static func render(_ source: Image, _ operation: LabOperation, _ candidate: Candidate) -> OracleImage? {
        let size = source.displaySize
        guard let placement = try? OracleGeometry.placement(of: operation, width: size.width, height: size.height) else { return nil }
        let scale = (x: placement.source.width / max(1, placement.content.width),
                     y: placement.source.height / max(1, placement.content.height))
        return try? KernelOracle.render(source: source, placement: placement, design: candidate.design(scale: scale))
    }

    /// Every candidate scored against the outputs of the shrink and the enlargement (the sum of
    /// their distances), best first; empty when neither output can be compared. The best design
    /// is tried again with one kernel to shrink and another to enlarge, then with an 8-bit intermediate (``KernelOracle/Design/intermediateBits``) and
    /// each variant leads when it fits a quarter better.
    static func rank(shrink: Image?, enlarge: Image?) -> [Scored] {
        let probes = [(CalibrationImages.shrink, shrink), (CalibrationImages.enlarge, enlarge)].compactMap { probe, output in
            output.flatMap(Pixels.init).map { (probe, $0) }
        }
        guard !probes.isEmpty else { return [] }
        var scored: [(Int, Scored)] = []
        for (index, candidate) in candidates.enumerated() {
            if let s = score(candidate, probes) { scored.append((index, s)) }
        }
        // Ties go to the earlier candidate: the plainer design.
        var ranked = scored.sorted { ($0.1.distance, $0.0) < ($1.1.distance, $1.0) }.map(\.1)
        // One kernel to shrink and another to enlarge (OpenCV's documented INTER_AREA / INTER_CUBIC).
        if let best = ranked.first, probes.count == 2 {
            var split: Scored?
            for shrinking in DeclaredKernel.allCases {
                for enlarging in DeclaredKernel.allCases where enlarging != shrinking {
                    var c = best.candidate
                    c.design.kernel = shrinking
                    c.design.enlargingKernel = enlarging
                    if let s = score(c, probes), s.distance < (split?.distance ?? .infinity) { split = s }
                }
            }
            if let split, split.distance < 0.75 * best.distance { ranked.insert(split, at: 0) }
        }
        if var stored = ranked.first?.candidate {
            stored.design.intermediateBits = 8
            if let s = score(stored, probes), s.distance < 0.75 * ranked[0].distance { ranked.insert(s, at: 0) }
        }
        // A known library's own arithmetic (libvips' fixed-point reduce) for the best kernel and light
        // space: it changes shrinks only, so it leads when it fits the shrink far better and the whole no worse.
        if var library = ranked.first?.candidate, library.centres == .aligned,
           ResampleArithmetic.libvipsReduce.models(library.design.kernel) {
            library.design.intermediateBits = nil
            library.design.arithmetic = .libvipsReduce
            let shrinks = probes.filter { $0.0.operation == CalibrationImages.shrink.operation }
            if let s = score(library, probes), s.distance <= ranked[0].distance,
               let fitted = score(library, shrinks)?.distance, let plain = score(ranked[0].candidate, shrinks)?.distance,
               fitted < 0.5 * plain {
                ranked.insert(s, at: 0)
            }
        }
        return ranked
    }

    /// `candidate`'s distance from every probe's output (summed) and its mean bias, or `nil` when
    /// a rendering cannot be made or compared.
    private static func score(_ candidate: Candidate, _ probes: [(CalibrationImages.Probe, Pixels)]) -> Scored? {
        var total = 0.0, bias = 0.0
        for (probe, actual) in probes {
            guard let oracle = render(probe.source, probe.operation, candidate),
                  let d = distance(actual, Pixels(oracle)) else { return nil }
            total += d.mean
            bias += d.bias / Double(probes.count)
        }
        return Scored(candidate: candidate, distance: total, bias: bias)
    }
}
