import ImageCore

/// Built-in canary pairs that run before any gate is evaluated (fail closed): if a metric
/// cannot tell a pair that must differ from pairs that must match, the gate is not evaluated
/// and the caller reports an error instead of a pass.
///
/// - must match (by value): an RGBA image and its exact 16-bit copy; a palette image and its
///   RGB copy. Every distance metric must be 0, every similarity at its maximum (PSNR ∞,
///   SSIM family 1, SSIMULACRA 2 100), every signed metric 0.
/// - must differ: the RGBA image with colour noise in every alpha band (hidden colour
///   included), alpha changed in the translucent and transparent bands, and 1 pixel in 61 with
///   red inverted (opaque ones also half transparent). Every distance metric
///   must be > 0, every similarity below its maximum, every signed metric ≠ 0.
/// - diagnosis: the opaque image with red and blue swapped must be diagnosed `channel-order`.
///
/// The images are 176×176 (the smallest size MS-SSIM is defined for) and computed from integer
/// formulas, so the canaries are the same on every machine.
public enum Canaries {
    /// One metric that failed a canary.
    public struct Failure: Sendable, Hashable, CustomStringConvertible {
        public var metric: String
        public var pair: String
        public var reason: String
        public var description: String { "canary '\(pair)': \(metric) \(reason)" }

        public init(metric: String, pair: String, reason: String) {
            self.metric = metric
            self.pair = pair
            self.reason = reason
        }
    }

    /// Runs the canaries through `compare` (the real comparison by default; tests inject broken ones).
    public static func check(
        using compare: (ComparedImage, ComparedImage, ComparisonOptions) -> Comparison = { Comparison(expected: $0, actual: $1, options: $2) }
    ) -> [Failure] {
        var failures: [Failure] = []
        let base = rgba()
        let noDiagnosis = ComparisonOptions(diagnose: false)
        let matching: [(String, Comparison)] = [
            ("16-bit copy", compare(named(base, "base"), named(deep(base), "16-bit copy"), noDiagnosis)),
            ("palette vs RGB", compare(named(paletteSource(), "palette"), named(rgbCopy(paletteSource()), "RGB copy"), noDiagnosis)),
        ]
        let differing = compare(named(base, "base"), named(disturbed(base), "disturbed"), noDiagnosis)
        // diagnosis.confidence, the lab-only hidden.delta and ignored.pixels (a setting's count)
        // are not pixel metrics of two images.
        for definition in MetricCatalog.all where !["diagnosis.confidence", "hidden.delta", "ignored.pixels"].contains(definition.name) {
            let name = definition.name
            for (pair, c) in matching {
                guard let v = c.value(name) else {
                    // Only a band the image does not have may be missing ("no translucent pixels").
                    if c.metrics[name]?.missingReason?.hasPrefix("no ") != true {
                        failures.append(Failure(metric: name, pair: pair, reason: "has no value"))
                    }
                    continue
                }
                let ok: Bool
                switch definition.direction {
                case .distance, .signed: ok = v == 0
                case .property: ok = v == Double(min(c.expected.width, c.expected.height))
                case .similarity: ok = name.hasPrefix("psnr") ? v.isInfinite : (name == "ssimulacra2" ? v == 100 : v == 1)
                }
                if !ok { failures.append(Failure(metric: name, pair: pair, reason: "reports \(v) for a pair that must match")) }
            }
            guard let v = differing.value(name) else {
                failures.append(Failure(metric: name, pair: "disturbed", reason: "has no value")); continue
            }
            let ok: Bool
            switch definition.direction {
            case .distance: ok = v > 0
            case .signed: ok = v != 0
            case .property: ok = v == Double(min(differing.expected.width, differing.expected.height))
            case .similarity: ok = name.hasPrefix("psnr") ? v.isFinite : (name == "ssimulacra2" ? v < 100 : v < 1)
            }
            if !ok { failures.append(Failure(metric: name, pair: "disturbed", reason: "reports \(v) for a pair that must differ")) }
        }
        let swapped = compare(named(opaque(), "opaque"), named(swapRB(opaque()), "R↔B"), ComparisonOptions(structural: false))
        if swapped.diagnosis.bugClass != "channel-order" {
            failures.append(Failure(metric: "diagnosis", pair: "R↔B swap", reason: "named \(swapped.diagnosis.bugClass ?? "nothing") instead of channel-order"))
        }
        return failures
    }

    static let size = 176

    static func named(_ bitmap: Bitmap, _ name: String) -> ComparedImage {
        ComparedImage(image: Image(bitmap: bitmap), name: "canary: \(name)")
    }

    /// Deterministic hash noise in 0..<m.
    static func noise(_ x: Int, _ y: Int, _ k: Int, _ m: Int) -> Int {
        let a: UInt32 = UInt32(truncatingIfNeeded: x) &* 73856093
        let b: UInt32 = UInt32(truncatingIfNeeded: y) &* 19349663
        let c: UInt32 = UInt32(truncatingIfNeeded: k) &* 83492791
        var h: UInt32 = a ^ b ^ c
        h = (h ^ (h >> 13)) &* 1274126177
        h = h ^ (h >> 16)
        return Int(h % UInt32(m))
    }

    /// RGBA: gradients and a checker; alpha opaque on the left third, translucent in the
    /// middle, transparent on the right (with colour hidden underneath).
    static func rgba() -> Bitmap {
        var bytes: [UInt8] = []
        for y in 0..<size {
            for x in 0..<size {
                let checker = ((x / 8 + y / 8) % 2) * 60
                let a = x < size / 3 ? 255 : (x < 2 * size / 3 ? 40 + (x * 3 + y) % 180 : 0)
                let r = (x * 255) / (size - 1), g = (y * 200) / (size - 1) + checker / 2, b = 30 + checker * 2
                bytes += [UInt8(r), UInt8(g), UInt8(b), UInt8(a)]
            }
        }
        return Bitmap(uncheckedWidth: size, height: size, format: .rgba8, bytesPerRow: size * 4, bytes: bytes)
    }

    static func opaque() -> Bitmap {
        var bytes: [UInt8] = []
        for y in 0..<48 {
            for x in 0..<48 {
                let g = y * 4 + noise(x, y, 1, 16)
                bytes += [UInt8(x * 5), UInt8(g), UInt8(200 - x * 2)]
            }
        }
        return Bitmap(uncheckedWidth: 48, height: 48, format: .rgb8, bytesPerRow: 144, bytes: bytes)
    }

    static func swapRB(_ b: Bitmap) -> Bitmap {
        var out = b.bytes
        for i in stride(from: 0, to: out.count, by: 3) { out.swapAt(i, i + 2) }
        return Bitmap(uncheckedWidth: b.width, height: b.height, format: b.format, bytesPerRow: b.bytesPerRow, bytes: out)
    }

    /// The exact 16-bit copy (each code × 257, big-endian).
    static func deep(_ b: Bitmap) -> Bitmap {
        var out: [UInt8] = []
        out.reserveCapacity(b.bytes.count * 2)
        for v in b.bytes { out += [v, v] }
        return Bitmap(uncheckedWidth: b.width, height: b.height, format: .rgba16, bytesPerRow: b.width * 8, bytes: out)
    }

    static func disturbed(_ b: Bitmap) -> Bitmap {
        var out = b.bytes
        for y in 0..<size {
            for x in 0..<size {
                let i = (y * size + x) * 4
                for c in 0..<3 { out[i + c] = UInt8(clamping: Int(out[i + c]) + noise(x, y, c, 21) - 10) }
                if out[i + 3] != 255 && (x + y) % 3 == 0 { out[i + 3] = UInt8(clamping: Int(out[i + 3]) + 30) }
                // A few large errors, some in opaque alpha, so every histogram bucket and band is exercised.
                if (x * 7 + y * 3) % 61 == 0 {
                    out[i] = out[i] > 127 ? 0 : 255
                    if out[i + 3] == 255 { out[i + 3] = 128 }
                }
            }
        }
        return Bitmap(uncheckedWidth: b.width, height: b.height, format: b.format, bytesPerRow: b.bytesPerRow, bytes: out)
    }

    /// A 16-colour indexed image with one transparent entry.
    static func paletteSource() -> Bitmap {
        var entries: [Palette.Entry] = []
        for i in 0..<16 {
            let alpha: UInt8 = i == 0 ? 0 : 255
            entries.append(Palette.Entry(red: UInt8(i * 16), green: UInt8(255 - i * 16), blue: UInt8((i * 97) % 256), alpha: alpha))
        }
        var bytes: [UInt8] = []
        for y in 0..<size { for x in 0..<size { bytes.append(UInt8((x / 11 + y / 11 * 3) % 16)) } }
        let format = PixelFormat(colorModel: .indexed(Palette(entries)), bitsPerComponent: 8)
        return Bitmap(uncheckedWidth: size, height: size, format: format, bytesPerRow: size, bytes: bytes)
    }

    static func rgbCopy(_ b: Bitmap) -> Bitmap {
        (try? b.converted(to: .rgba8)) ?? b
    }
}
