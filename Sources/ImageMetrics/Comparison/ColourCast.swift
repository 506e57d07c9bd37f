import Foundation

/// A colour cast: mean CIELAB shift (actual − expected) and its direction in words.
public struct ColourCast: Sendable, Hashable, Codable {
    public var dL: Double, da: Double, db: Double
    /// √(Δa*² + Δb*²).
    public var chromaShift: Double
    /// e.g. "pink/magenta, lighter", or "none".
    public var direction: String

    /// Names the direction of (Δa*, Δb*) by hue sector (45° each, centred on the axes) when
    /// the chroma shift is at least 0.5, and the lightness change when |ΔL*| ≥ 0.5.
    public init(dL: Double, da: Double, db: Double) {
        self.dL = dL; self.da = da; self.db = db
        chromaShift = (da * da + db * db).squareRoot()
        var words: [String] = []
        if chromaShift >= 0.5 {
            var angle = atan2Degrees(db, da)
            if angle < 0 { angle += 360 }
            let sectors = ["pink/magenta", "orange", "yellow", "yellow-green", "green", "cyan", "blue", "purple"]
            words.append(sectors[Int(((angle + 22.5) / 45).rounded(.down)) % 8])
        }
        if abs(dL) >= 0.5 { words.append(dL > 0 ? "lighter" : "darker") }
        direction = words.isEmpty ? "none" : words.joined(separator: ", ")
    }
}


private func atan2Degrees(_ y: Double, _ x: Double) -> Double { atan2(y, x) * 180 / .pi }
