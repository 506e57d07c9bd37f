import Foundation

/// A resampling kernel: a weight function of the distance from an output pixel's centre,
/// measured in input pixels (scaled up when shrinking), and the support beyond which it is 0.
///
/// Presets: ``nearest`` (box, support ½), ``triangle`` (bilinear, 1), ``catmullRom`` and
/// ``mitchell`` (bicubic, 2), ``lanczos3`` (3). A caller's own kernel is just another value.
public struct Kernel: Sendable, CustomStringConvertible {
    /// A short name used in the CLI and reports ("lanczos3").
    public let name: String
    /// The half-width where the weight becomes 0, in input pixels at scale 1.
    public let support: Double
    /// The weight at distance `x` (in input pixels at scale 1); need not be normalised.
    public let weight: @Sendable (Double) -> Double

    public init(name: String, support: Double, weight: @escaping @Sendable (Double) -> Double) {
        self.name = name
        self.support = support
        self.weight = weight
    }

    public var description: String { name }

    /// Box: each output pixel takes the input pixel its centre falls in (no filtering when
    /// enlarging; an area average when shrinking, as Pillow's BOX).
    public static let nearest = Kernel(name: "nearest", support: 0.5) { x in
        (x >= -0.5 && x < 0.5) ? 1 : 0
    }

    /// Triangle (tent): linear interpolation; bilinear in two dimensions.
    public static let triangle = Kernel(name: "triangle", support: 1) { x in
        let a = abs(x)
        return a < 1 ? 1 - a : 0
    }

    /// The cubic family of Mitchell & Netravali (1988) with parameters B and C.
    public static func cubic(name: String, b: Double, c: Double) -> Kernel {
        Kernel(name: name, support: 2) { x in
            let a = abs(x)
            if a < 1 {
                return ((12 - 9 * b - 6 * c) * a * a * a + (-18 + 12 * b + 6 * c) * a * a + (6 - 2 * b)) / 6
            }
            if a < 2 {
                return ((-b - 6 * c) * a * a * a + (6 * b + 30 * c) * a * a + (-12 * b - 48 * c) * a + (8 * b + 24 * c)) / 6
            }
            return 0
        }
    }

    /// Catmull-Rom spline (B = 0, C = ½): sharp, interpolating.
    public static let catmullRom = cubic(name: "catmull-rom", b: 0, c: 0.5)

    /// Mitchell-Netravali (B = C = ⅓): the authors' recommended compromise.
    public static let mitchell = cubic(name: "mitchell", b: 1.0 / 3, c: 1.0 / 3)

    /// Lanczos windowed sinc with 3 lobes.
    public static let lanczos3 = Kernel(name: "lanczos3", support: 3) { x in
        if x == 0 { return 1 }
        let a = abs(x)
        guard a < 3 else { return 0 }
        let px = Double.pi * x
        return 3 * sin(px) * sin(px / 3) / (px * px)
    }

    /// Every preset, in order of cost.
    public static let presets: [Kernel] = [.nearest, .triangle, .catmullRom, .mitchell, .lanczos3]

    /// The preset with this name, if any.
    public static func named(_ name: String) -> Kernel? {
        presets.first { $0.name == name.lowercased() }
    }
}

/// Quartz's `CGInterpolationQuality`, mapped onto kernels.
public enum InterpolationQuality: String, Sendable, CaseIterable {
    case none, low, medium, high

    /// none → nearest, low → triangle, medium → Catmull-Rom, high → Lanczos3.
    public var kernel: Kernel {
        switch self {
        case .none: return .nearest
        case .low: return .triangle
        case .medium: return .catmullRom
        case .high: return .lanczos3
        }
    }
}
