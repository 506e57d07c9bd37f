import ImageCore

/// A colour in CIE 1976 L*a*b*: lightness L* (0…100) and the opponent axes a* (green − / red +)
/// and b* (blue − / yellow +), in CIELAB units.
public struct LabColor: Sendable, Hashable, Codable {
    public var l: Double, a: Double, b: Double
    public init(l: Double, a: Double, b: Double) { self.l = l; self.a = a; self.b = b }
}

/// sRGB → linear light → CIE XYZ → CIELAB, with the conventions of
/// `Tests/Fixtures/reference/README.md` §2 (so every implementation in the project agrees).
///
/// - sRGB EOTF of IEC 61966-2-1 (``SRGBTransfer``).
/// - Linear sRGB → XYZ with the float64 matrix derived from the sRGB primaries and the exact
///   D65 white (0.95047, 1, 1.08883) (= Lindbloom's matrix), so R = G = B gives a* = b* = 0;
///   *not* the rounded IEC matrix, whose white gives every grey a false b* ≈ −0.01.
/// - XYZ → CIELAB (CIE 15:2004) with the exact rational ε = 216/24389 and κ = 24389/27.
public enum CIELab {
    /// The D65 reference white (Xn, Yn, Zn).
    public static let white = (x: 0.95047, y: 1.0, z: 1.08883)

    /// Linear sRGB → XYZ, rows X, Y, Z.
    public static let rgbToXYZ: [[Double]] = [
        [0.41245643908969221, 0.35757607764390892, 0.18043748326639886],
        [0.21267285140562256, 0.71515215528781784, 0.072174993306559534],
        [0.019333895582329303, 0.11919202588130295, 0.95030407853636734],
    ]

    /// CIE ε = (6/29)³ = 216/24389.
    public static let epsilon = 216.0 / 24389.0
    /// CIE κ = (29/3)³ = 24389/27.
    public static let kappa = 24389.0 / 27.0

    /// Linear-light RGB (0…1) → CIE XYZ (Y = 1 for white).
    @inline(__always)
    public static func xyz(linearRed r: Double, green g: Double, blue b: Double) -> (x: Double, y: Double, z: Double) {
        (0.41245643908969221 * r + 0.35757607764390892 * g + 0.18043748326639886 * b,
         0.21267285140562256 * r + 0.71515215528781784 * g + 0.072174993306559534 * b,
         0.019333895582329303 * r + 0.11919202588130295 * g + 0.95030407853636734 * b)
    }

    /// The CIELAB companding function `f(t) = t > ε ? ∛t : (κ·t + 16)/116`.
    @inline(__always)
    static func f(_ t: Double) -> Double {
        t > epsilon ? CubeRoot.of(t) : (kappa * t + 16) / 116
    }

    /// CIE XYZ → CIELAB relative to ``white``.
    @inline(__always)
    public static func lab(x: Double, y: Double, z: Double) -> LabColor {
        let fx = f(x / white.x), fy = f(y / white.y), fz = f(z / white.z)
        return LabColor(l: 116 * fy - 16, a: 500 * (fx - fy), b: 200 * (fy - fz))
    }

    /// Linear-light RGB (0…1) → CIELAB.
    @inline(__always)
    public static func lab(linearRed r: Double, green g: Double, blue b: Double) -> LabColor {
        let c = xyz(linearRed: r, green: g, blue: b)
        return lab(x: c.x, y: c.y, z: c.z)
    }

    /// Two linear-light RGB colours (0…1) → CIELAB, the six companding roots taken together
    /// (``CubeRoot/ofPositive(_:)``); the same values as two calls of ``lab(linearRed:green:blue:)``.
    @inline(__always)
    static func labPair(_ p: (Double, Double, Double), _ q: (Double, Double, Double)) -> (LabColor, LabColor) {
        let c = xyz(linearRed: p.0, green: p.1, blue: p.2), d = xyz(linearRed: q.0, green: q.1, blue: q.2)
        let t = SIMD8<Double>(c.x / white.x, c.y / white.y, c.z / white.z, d.x / white.x, d.y / white.y, d.z / white.z, 1, 1)
        let eps = SIMD8<Double>(repeating: epsilon)
        let root = CubeRoot.ofPositive(t.replacing(with: eps, where: t .<= eps))
        let linear = (kappa * t + 16) / 116
        let f = linear.replacing(with: root, where: t .> eps)
        return (LabColor(l: 116 * f[1] - 16, a: 500 * (f[0] - f[1]), b: 200 * (f[1] - f[2])),
                LabColor(l: 116 * f[4] - 16, a: 500 * (f[3] - f[4]), b: 200 * (f[4] - f[5])))
    }

    /// Gamma-encoded sRGB (0…1) → CIELAB.
    public static func lab(sRGBRed r: Double, green g: Double, blue b: Double) -> LabColor {
        lab(linearRed: SRGBTransfer.toLinear(r), green: SRGBTransfer.toLinear(g), blue: SRGBTransfer.toLinear(b))
    }
}
