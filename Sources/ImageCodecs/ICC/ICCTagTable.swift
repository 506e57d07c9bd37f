import Foundation

/// The tags of an ICC profile, looked up by signature with every offset and size checked
/// against the profile's bytes, and the few tag types `imglab info` reads: `desc`/`mluc` text,
/// `XYZ ` numbers, the `sf32` adaptation matrix, `curv` and `para` tone curves (ICC.1:2022 §10).
struct ICCTagTable {
    let bytes: [UInt8]
    /// Signature → (offset, size), the first entry of each signature; at most 200 entries read.
    let entries: [String: (offset: Int, size: Int)]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var entries: [String: (offset: Int, size: Int)] = [:]
        if let count = Self.be32(bytes, 128) {
            for i in 0..<min(count, 200) {
                let entry = 132 + 12 * i
                guard entry + 12 <= bytes.count, let offset = Self.be32(bytes, entry + 4), let size = Self.be32(bytes, entry + 8),
                      size >= 8, offset <= bytes.count - size else { break }
                let signature = String(decoding: bytes[entry..<(entry + 4)], as: UTF8.self)
                if entries[signature] == nil { entries[signature] = (offset, size) }
            }
        }
        self.entries = entries
    }

    static func be32(_ b: [UInt8], _ at: Int) -> Int? {
        guard at >= 0, at + 4 <= b.count else { return nil }
        return Int(b[at]) << 24 | Int(b[at + 1]) << 16 | Int(b[at + 2]) << 8 | Int(b[at + 3])
    }

    /// A signed 15.16 fixed-point number.
    static func s15Fixed16(_ b: [UInt8], _ at: Int) -> Double? {
        be32(b, at).map { Double(Int32(truncatingIfNeeded: $0)) / 65536 }
    }

    /// The tag's bytes with its type signature, when the tag exists and has that type.
    func tag(_ signature: String, type: String) -> (offset: Int, size: Int)? {
        guard let e = entries[signature], String(decoding: bytes[e.offset..<(e.offset + 4)], as: UTF8.self) == type else { return nil }
        return e
    }

    /// The profile description (`desc`: v2 ASCII or v4 `mluc`, its first record).
    func description() -> String? {
        guard let e = entries["desc"] else { return nil }
        let end = e.offset + e.size
        let type = String(decoding: bytes[e.offset..<(e.offset + 4)], as: UTF8.self)
        if type == "desc", let n = Self.be32(bytes, e.offset + 8), n > 0, n <= end - e.offset - 12 {
            return String(decoding: bytes[(e.offset + 12)..<(e.offset + 12 + n)].prefix { $0 != 0 }, as: UTF8.self)
        }
        if type == "mluc", let records = Self.be32(bytes, e.offset + 8), records > 0,
           let length = Self.be32(bytes, e.offset + 20), let start = Self.be32(bytes, e.offset + 24),
           start <= e.size, length <= e.size - start {
            var units: [UInt16] = []
            var p = e.offset + start
            while p + 1 < e.offset + start + length { units.append(UInt16(bytes[p]) << 8 | UInt16(bytes[p + 1])); p += 2 }
            return String(decoding: units, as: UTF16.self)
        }
        return nil
    }

    /// The three numbers of an `XYZ ` tag.
    func xyz(_ signature: String) -> [Double]? {
        guard let e = tag(signature, type: "XYZ "), e.size >= 20 else { return nil }
        let values = (0..<3).compactMap { Self.s15Fixed16(bytes, e.offset + 8 + 4 * $0) }
        return values.count == 3 ? values : nil
    }

    /// A 3 × 3 matrix of an `sf32` tag (row-major), e.g. `chad`.
    func matrix(_ signature: String) -> [Double]? {
        guard let e = tag(signature, type: "sf32"), e.size >= 44 else { return nil }
        let values = (0..<9).compactMap { Self.s15Fixed16(bytes, e.offset + 8 + 4 * $0) }
        return values.count == 9 ? values : nil
    }

    /// A tone curve (`curv` or `para`).
    func curve(_ signature: String) -> ICCToneCurve? {
        if let e = tag(signature, type: "curv"), let count = Self.be32(bytes, e.offset + 8), count <= (e.size - 12) / 2 {
            let table = (0..<count).map { i in Double(UInt16(bytes[e.offset + 12 + 2 * i]) << 8 | UInt16(bytes[e.offset + 13 + 2 * i])) }
            switch count {
            case 0: return .parametric(type: 0, [1])
            case 1: return .parametric(type: 0, [table[0] / 256])
            default: return .table(table.map { $0 / 65535 })
            }
        }
        if let e = tag(signature, type: "para"), e.size >= 12 {
            let type = Int(bytes[e.offset + 8]) << 8 | Int(bytes[e.offset + 9])
            let counts = [1, 3, 4, 5, 7]
            guard type < counts.count, 12 + 4 * counts[type] <= e.size else { return nil }
            return .parametric(type: type, (0..<counts[type]).compactMap { Self.s15Fixed16(bytes, e.offset + 12 + 4 * $0) })
        }
        return nil
    }

    /// The inverse of a row-major 3 × 3 matrix; `nil` when singular.
    static func inverse(_ m: [Double]) -> [Double]? {
        let det = m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6])
        guard abs(det) > 1e-12 else { return nil }
        let c = [m[4] * m[8] - m[5] * m[7], m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
                 m[5] * m[6] - m[3] * m[8], m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
                 m[3] * m[7] - m[4] * m[6], m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3]]
        return c.map { $0 / det }
    }

    /// The Bradford chromatic adaptation from D50 to `white` (XYZ, Y = 1), row-major.
    static func bradford(fromD50To white: [Double]) -> [Double]? {
        let m = [0.8951, 0.2664, -0.1614, -0.7502, 1.7135, 0.0367, 0.0389, -0.0685, 1.0296]
        guard let inverse = inverse(m) else { return nil }
        let source = apply(m, [0.9642, 1.0, 0.8249]), target = apply(m, white)
        guard source.allSatisfy({ abs($0) > 1e-9 }) else { return nil }
        // inverse(M) · diag(target / source) · M
        var scaled = [Double](repeating: 0, count: 9)
        for i in 0..<9 { scaled[i] = m[i] * target[i / 3] / source[i / 3] }
        return product(inverse, scaled)
    }

    /// The product `a · b` of two row-major 3 × 3 matrices.
    static func product(_ a: [Double], _ b: [Double]) -> [Double] {
        var out = [Double](repeating: 0, count: 9)
        for r in 0..<3 {
            for c in 0..<3 {
                var sum = 0.0
                for k in 0..<3 { sum += a[r * 3 + k] * b[k * 3 + c] }
                out[r * 3 + c] = sum
            }
        }
        return out
    }

    static func apply(_ m: [Double], _ v: [Double]) -> [Double] {
        (0..<3).map { r in m[3 * r] * v[0] + m[3 * r + 1] * v[1] + m[3 * r + 2] * v[2] }
    }

    /// CIE (x, y) of an XYZ triple; `nil` when X + Y + Z is not positive.
    static func chromaticity(_ xyz: [Double]) -> [Double]? {
        let sum = xyz[0] + xyz[1] + xyz[2]
        return sum > 1e-9 ? [xyz[0] / sum, xyz[1] / sum] : nil
    }
}

/// An ICC tone curve: encoded value (0…1) → linear (0…1).
enum ICCToneCurve: Sendable {
    /// ICC `para` function type 0…4 with its parameters (g, a, b, c, d, e, f).
    case parametric(type: Int, [Double])
    /// `curv` samples, evenly spaced, each 0…1.
    case table([Double])

    /// The curve at `x` (0…1).
    func value(_ x: Double) -> Double {
        switch self {
        case .table(let t):
            let p = x * Double(t.count - 1), i = min(Int(p), t.count - 2)
            return t[i] + (t[i + 1] - t[i]) * (p - Double(i))
        case .parametric(let type, let p):
            func power(_ base: Double) -> Double { pow(max(base, 0), p[0]) }
            switch type {
            case 0: return power(x)
            case 1: return x >= -p[2] / p[1] ? power(p[1] * x + p[2]) : 0
            case 2: return x >= -p[2] / p[1] ? power(p[1] * x + p[2]) + p[3] : p[3]
            case 3: return x >= p[4] ? power(p[1] * x + p[2]) : p[3] * x
            default: return x >= p[4] ? power(p[1] * x + p[2]) + p[5] : p[3] * x + p[6]
            }
        }
    }

    /// Whether it is the sRGB curve within 0.002 of full scale (at 33 points).
    var followsSRGB: Bool {
        (0...32).allSatisfy { i in
            let x = Double(i) / 32
            let srgb = x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4)
            return abs(value(x) - srgb) <= 0.002
        }
    }

    /// In words: `gamma 2.2`, `sRGB curve`, `table of N entries`, `identity`, `parametric type N (γ g)`.
    var words: String {
        if followsSRGB {
            if case .table(let t) = self { return "sRGB curve (table of \(t.count) entries)" }
            return "sRGB curve"
        }
        switch self {
        case .table(let t): return "table of \(t.count) entries"
        case .parametric(let type, let p):
            if type == 0 { return p[0] == 1 ? "identity" : String(format: "gamma %.4g", p[0]) }
            return String(format: "parametric type %d (γ %.4g)", type, p.first ?? 0)
        }
    }
}
