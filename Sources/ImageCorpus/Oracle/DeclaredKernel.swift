import Foundation

/// A resampling kernel as its published definition states it: a weight of the distance from an
/// output pixel's centre, in source pixels at scale 1, and the support beyond which it is 0.
/// Written from the definitions (not from ImageResize's kernels), for the ``KernelOracle``.
///
/// When shrinking by `s > 1`, a kernel is widened by `s` (weights of `distance / s`, support
/// `support · s`): that is what antialiases. ``nearest`` is the one kernel never widened: it takes
/// the source pixel under the output pixel's centre.
public enum DeclaredKernel: String, Sendable, Hashable, Codable, CaseIterable {
    /// Point sampling: the source pixel whose square contains the output pixel's centre.
    case nearest
    /// Box of width 1 (widened when shrinking: every source pixel whose centre lies in the output
    /// pixel's footprint counts equally, as Pillow's BOX). ImageResize calls this preset `nearest`.
    case box
    /// Tent: `1 − |x|` on `|x| < 1` (bilinear in two dimensions).
    case triangle
    /// Catmull-Rom spline: Mitchell–Netravali cubic with B = 0, C = ½ (Keys' a = −½), support 2.
    case catmullRom = "catmull-rom"
    /// Mitchell–Netravali cubic with B = C = ⅓, support 2.
    case mitchell
    /// Lanczos windowed sinc with 3 lobes: `sinc(x) · sinc(x / 3)` on `|x| < 3`.
    case lanczos3

    /// The half-width where the weight becomes 0, in source pixels at scale 1.
    public var support: Double {
        switch self {
        case .nearest, .box: return 0.5
        case .triangle: return 1
        case .catmullRom, .mitchell: return 2
        case .lanczos3: return 3
        }
    }

    /// The weight at distance `x` (source pixels at scale 1); not normalised.
    public func weight(_ x: Double) -> Double {
        let a = abs(x)
        switch self {
        case .nearest, .box:
            // Half-open, so a centre exactly between two pixels counts once.
            return x >= -0.5 && x < 0.5 ? 1 : 0
        case .triangle:
            return a < 1 ? 1 - a : 0
        case .catmullRom:
            return Self.mitchellNetravali(a, b: 0, c: 0.5)
        case .mitchell:
            return Self.mitchellNetravali(a, b: 1.0 / 3, c: 1.0 / 3)
        case .lanczos3:
            guard a < 3 else { return 0 }
            return Self.sinc(x) * Self.sinc(x / 3)
        }
    }

    /// `sin(πx) / (πx)`, 1 at 0.
    static func sinc(_ x: Double) -> Double {
        x == 0 ? 1 : sin(Double.pi * x) / (Double.pi * x)
    }

    /// Mitchell & Netravali, "Reconstruction Filters in Computer Graphics" (1988), eq. 8, at `a = |x|`.
    static func mitchellNetravali(_ a: Double, b: Double, c: Double) -> Double {
        if a < 1 {
            return ((12 - 9 * b - 6 * c) * a * a * a + (-18 + 12 * b + 6 * c) * a * a + (6 - 2 * b)) / 6
        }
        if a < 2 {
            return ((-b - 6 * c) * a * a * a + (6 * b + 30 * c) * a * a + (-12 * b - 48 * c) * a + (8 * b + 24 * c)) / 6
        }
        return 0
    }
}

/// What a resampler does with kernel taps that fall outside the source.
public enum EdgeRule: String, Sendable, Hashable, Codable, CaseIterable {
    /// Drop them and divide by the sum of the remaining weights (Pillow, libvips' reduce, imglab).
    case renormalize
    /// Read the nearest edge pixel instead (replicate the border).
    case clamp
    /// Read the pixel as far inside the opposite edge (the image tiled, a GPU sampler's repeat
    /// mode): right for seamless textures, a bug for photographs.
    case wrap
}
