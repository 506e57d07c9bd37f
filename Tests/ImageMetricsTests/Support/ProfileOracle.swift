import Foundation

/// An independent rendering in sRGB of colours stated by a matrix/TRC profile, from what the
/// profile was built from (Tests/Fixtures/icc/manifest.json: white and primaries as CIE xy, a
/// tone curve), by the textbook arithmetic: decode the curve, RGB → XYZ from the primaries and
/// white, Bradford adaptation from the profile's white to D65 (the relative colorimetric intent),
/// XYZ → linear sRGB, clip, encode. No Little CMS.
struct ProfileOracle {
    enum Curve { case srgb, gamma(Double), rec709 }
    var white: [Double]
    var primaries: [[Double]]?
    var curve: Curve

    static let d65 = [0.3127, 0.3290]
    static let srgbPrimaries = [[0.64, 0.33], [0.30, 0.60], [0.15, 0.06]]

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

    static func srgbDecode(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
    static func srgbEncode(_ v: Double) -> Double { v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055 }

    func decode(_ v: Double) -> Double {
        switch curve {
        case .srgb: return Self.srgbDecode(v)
        case .gamma(let g): return pow(v, g)
        // The inverse of ITU-R BT.709's camera curve V = 1.099 L^0.45 − 0.099 (V = 4.5 L below L = 0.018).
        case .rec709: return v < 0.081 ? v / 4.5 : pow((v + 0.099) / 1.099, 1 / 0.45)
        }
    }

    /// The sRGB rendering (0…1 per channel) of `rgb` (0…1; one value for a gray profile).
    func render(_ stored: [Double]) -> [Double] {
        guard let primaries else {
            let y = Self.srgbEncode(min(max(decode(stored[0]), 0), 1))
            return [y, y, y]
        }
        let toXYZ = Self.rgbToXYZ(primaries, white: white)
        let adapt = Self.bradford(from: white, to: Self.d65)
        let toSRGB = Self.inverse(Self.rgbToXYZ(Self.srgbPrimaries, white: Self.d65))
        let linear = Self.apply(toSRGB, Self.apply(adapt, Self.apply(toXYZ, stored.map(decode))))
        return linear.map { Self.srgbEncode(min(max($0, 0), 1)) }
    }
}
