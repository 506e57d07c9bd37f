/// A hidden colour as 8-bit sRGB codes, for reading files back.
public struct HiddenRGB: Hashable, Sendable, CustomStringConvertible {
    /// 0…255 codes.
    public var red: Int, green: Int, blue: Int

    public init(red: Int, green: Int, blue: Int) {
        self.red = red; self.green = green; self.blue = blue
    }

    public static let magenta = HiddenRGB(red: 255, green: 0, blue: 255)
    public static let green = HiddenRGB(red: 0, green: 255, blue: 0)
    public static let white = HiddenRGB(red: 255, green: 255, blue: 255)
    public static let black = HiddenRGB(red: 0, green: 0, blue: 0)

    /// `magenta`, `green`, `white`, `black`, or `(r, g, b)`.
    public var description: String {
        switch self {
        case .magenta: return "magenta"
        case .green: return "green"
        case .white: return "white"
        case .black: return "black"
        default: return "(\(red), \(green), \(blue))"
        }
    }
}
