import Foundation

/// A display colour space by its definition — white and primaries (CIE 1931 x, y) and a tone
/// curve — with the textbook arithmetic between it and sRGB (no Little CMS): decode the curve,
/// RGB → XYZ from the primaries and white, Bradford adaptation between its white and D65 (the
/// relative colorimetric intent), XYZ → linear sRGB, encode. The corpus stores its tagged
/// sources with it, so the colours a file states are known independently of the library that
/// reads them. Values are 0…1 per channel.
public struct DisplaySpace: Sendable, Hashable {
    /// A tone curve from stored value to linear light.
    public enum Curve: Sendable, Hashable {
        /// IEC 61966-2-1.
        case srgb
        /// A pure power: linear = stored^γ.
        case gamma(Double)
        /// The inverse of ITU-R BT.709's camera curve V = 1.099 L^0.45 − 0.099 (V = 4.5 L below L = 0.018).
        case rec709
    }

    /// The white point (x, y).
    public var white: [Double]
    /// Red, green and blue primaries (x, y each); `nil` for a gray space.
    public var primaries: [[Double]]?
    /// The tone curve of every channel.
    public var curve: Curve

    public init(white: [Double], primaries: [[Double]]?, curve: Curve) {
        self.white = white
        self.primaries = primaries
        self.curve = curve
    }

    /// D65 (x, y).
    public static let d65 = [0.3127, 0.3290]
    /// The sRGB primaries (x, y), as Rec. 709.
    public static let srgbPrimaries = [[0.64, 0.33], [0.30, 0.60], [0.15, 0.06]]

    typealias Matrix = [[Double]]

    static func multiply(_ a: Matrix, _ b: Matrix) -> Matrix {
        (0..<3).map { i in (0..<3).map { j in (0..<3).reduce(0) { $0 + a[i][$1] * b[$1][j] } } }
    }
    static func apply(_ m: Matrix, _ v: [Double]) -> [Double] { (0..<3).map { i in (0..<3).reduce(0) { $0 + m[i][$1] * v[$1] } } }
    static func inverse(_ m: Matrix) -> Matrix {
        let (a, b, c) = (m[0][0], m[0][1], m[0][2]), (d, e, f) = (m[1][0], m[1][1], m[1][2]), (g, h, i) = (m[2][0], m[2][1], m[2][2])
        let det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
        return [[(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det],
                [(f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det],
                [(d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det]]
    }
    static func xyz(_ xy: [Double]) -> [Double] { [xy[0] / xy[1], 1, (1 - xy[0] - xy[1]) / xy[1]] }

    /// RGB → XYZ of the primaries with white `white` (columns scaled so RGB 1,1,1 is the white, Y = 1).
    static func rgbToXYZ(_ primaries: [[Double]], white: [Double]) -> Matrix {
        let columns = primaries.map(xyz)
        let p: Matrix = (0..<3).map { i in (0..<3).map { j in columns[j][i] } }
        let s = apply(inverse(p), xyz(white))
        return (0..<3).map { i in (0..<3).map { j in p[i][j] * s[j] } }
    }

    /// Bradford adaptation of XYZ from white `from` to white `to`.
    static func bradford(from: [Double], to: [Double]) -> Matrix {
        let ma: Matrix = [[0.8951, 0.2664, -0.1614], [-0.7502, 1.7135, 0.0367], [0.0389, -0.0685, 1.0296]]
        let s = apply(ma, xyz(from)), d = apply(ma, xyz(to))
        let scale: Matrix = (0..<3).map { i in (0..<3).map { j in i == j ? d[i] / s[i] : 0 } }
        return multiply(inverse(ma), multiply(scale, ma))
    }

    /// The sRGB curve, IEC 61966-2-1: stored → linear and back.
    public static func srgbDecode(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
    public static func srgbEncode(_ v: Double) -> Double { v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055 }

    /// Stored value → linear light by the space's curve.
    public func decode(_ v: Double) -> Double {
        switch curve {
        case .srgb: return Self.srgbDecode(v)
        case .gamma(let g): return pow(v, g)
        case .rec709: return v < 0.081 ? v / 4.5 : pow((v + 0.099) / 1.099, 1 / 0.45)
        }
    }

    /// Linear light → stored value by the space's curve.
    public func encode(linear v: Double) -> Double {
        switch curve {
        case .srgb: return Self.srgbEncode(v)
        case .gamma(let g): return pow(v, 1 / g)
        case .rec709: return v < 0.018 ? 4.5 * v : 1.099 * pow(v, 0.45) - 0.099
        }
    }

    /// The space's linear RGB → linear sRGB (with the white adapted to D65).
    var toLinearSRGB: Matrix? {
        primaries.map { primaries in
            let toXYZ = Self.rgbToXYZ(primaries, white: white)
            let adapt = Self.bradford(from: white, to: Self.d65)
            return Self.multiply(Self.inverse(Self.rgbToXYZ(Self.srgbPrimaries, white: Self.d65)), Self.multiply(adapt, toXYZ))
        }
    }

    /// The sRGB rendering (0…1 per channel, clipped to sRGB's gamut) of `stored` (one value for a gray space).
    public func render(_ stored: [Double]) -> [Double] {
        guard let matrix = toLinearSRGB else {
            let y = Self.srgbEncode(min(max(decode(stored[0]), 0), 1))
            return [y, y, y]
        }
        return Self.apply(matrix, stored.map(decode)).map { Self.srgbEncode(min(max($0, 0), 1)) }
    }

    /// The stored values (clipped to 0…1) that show the sRGB colour `srgb` (encoded, 0…1 per
    /// channel): the inverse of ``render(_:)``. A gray space stores the colour's luminance
    /// (Rec. 709 weights of linear sRGB), one value.
    public func stored(showing srgb: [Double]) -> [Double] {
        let linear = srgb.map(Self.srgbDecode)
        guard let matrix = toLinearSRGB else {
            return [encode(linear: min(max(0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2], 0), 1))]
        }
        return Self.apply(Self.inverse(matrix), linear).map { encode(linear: min(max($0, 0), 1)) }
    }
}
