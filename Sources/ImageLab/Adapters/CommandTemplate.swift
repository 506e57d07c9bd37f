import ImageCorpus
import Foundation

/// The command line of an external resizer: a `/bin/sh` command with `{placeholder}`s that
/// ``CommandResizer`` fills in for each (case, operation) pair.
///
/// **Substitution.** Each placeholder is replaced by its value *already shell-quoted*: a value
/// made only of `A–Z a–z 0–9 . _ / + , : = @ % -` is inserted as is, any other value is wrapped
/// in single quotes (an embedded `'` written `'"'"'`), so a file name with spaces, quotes, `$`
/// or `;` reaches the program as one argument and is never interpreted by the shell. Write
/// placeholders bare, never inside quotes of your own: `vipsthumbnail {in} -o {out}`, and glue
/// literal text to them with quotes, e.g. `{in}'[0]'` (ImageMagick's first frame). Braces that
/// hold anything but a lowercase name (`${HOME}`, `awk '{ print }'`) are left alone; a lowercase
/// `{name}` that is not a placeholder is an error when the template is read.
///
/// **Placeholders** (sizes in pixels of the upright image; see ``placeholders`` for each):
/// `{in} {out} {kind} {op} {mode} {width} {height} {outwidth} {outheight} {srcwidth}
/// {srcheight} {x} {y} {size} {border} {radius} {anchorx} {anchory} {gravity} {smartcrop} {tmp}`, plus the
/// names a config file fixes for the whole run (`{dir}`, the config file's folder, and its
/// `programs`). A placeholder the operation does not define (e.g. `{mode}` for a crop) makes
/// the pair an error saying so, never a command with a hole in it.
public struct CommandTemplate: Sendable, Hashable {
    /// The template as written.
    public let text: String
    /// Values fixed for the whole run (`dir`, programs), substituted like the others.
    public let fixed: [String: String]
    private let segments: [Segment]

    private enum Segment: Sendable, Hashable {
        case literal(String)
        case placeholder(String)
    }

    /// Every per-pair placeholder with what it holds.
    public static let placeholders: [(name: String, meaning: String)] = [
        ("in", "the source file: the corpus file, or an upright PNG (see the orientation policy)"),
        ("out", "the file the command must write, a .png in a per-call temporary folder"),
        ("kind", "the operation's name: orient, resize, crop, squareThumbnail, roundedCorners, transparentBorder, maxPixelSize"),
        ("op", "the operation id, e.g. resize-aspectFit-24x24"),
        ("mode", "resize only: scaleToFill, aspectFit, aspectFill, aspectFillWithoutCrop"),
        ("width", "resize: box width; crop: integral crop width; squareThumbnail: side; maxPixelSize: the limit; others: source width"),
        ("height", "as width, vertically"),
        ("outwidth", "the expected output width under the declared rounding rule"),
        ("outheight", "the expected output height under the declared rounding rule"),
        ("srcwidth", "the upright source width"),
        ("srcheight", "the upright source height"),
        ("x", "crop only: left edge of the integral crop rectangle (CGRectIntegral, clipped)"),
        ("y", "crop only: top edge of the integral crop rectangle"),
        ("size", "squareThumbnail: side; maxPixelSize: the limit"),
        ("border", "squareThumbnail, roundedCorners, transparentBorder: transparent border width"),
        ("radius", "squareThumbnail, roundedCorners: corner radius (may be fractional)"),
        ("anchorx", "resize: horizontal anchor, 0 left … 0.5 centre … 1 right (0.5 for modes other than aspectFill)"),
        ("anchory", "resize: vertical anchor, 0 top … 1 bottom (0.5 for modes other than aspectFill)"),
        ("gravity", "resize: the anchor as an ImageMagick gravity (Center, North, SouthEast, …), when it is one"),
        ("smartcrop", "resize: the anchor as a libvips --smartcrop strategy (low = 0,0; centre; high = 1,1), when it is one"),
        ("tmp", "the call's own temporary folder, for intermediate files (removed after the call)"),
    ]

    /// Reads `text`; `fixed` supplies run-wide placeholders such as `dir`.
    /// - Throws: ``CommandTemplateError`` for an unknown `{name}` or a template without `{out}`.
    public init(_ text: String, fixed: [String: String] = [:]) throws(CommandTemplateError) {
        self.text = text
        self.fixed = fixed
        let known = Set(Self.placeholders.map(\.name)).union(fixed.keys)
        var segments: [Segment] = []
        var literal = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            literal += rest[..<open]
            let after = rest[rest.index(after: open)...]
            if let close = after.firstIndex(of: "}"), !after[..<close].isEmpty,
               after[..<close].allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber) }),
               after.first?.isLowercase == true {
                let name = String(after[..<close])
                guard known.contains(name) else { throw CommandTemplateError(template: text, reason: "unknown placeholder {\(name)}; known: " + known.sorted().map { "{\($0)}" }.joined(separator: " ")) }
                if !literal.isEmpty { segments.append(.literal(literal)); literal = "" }
                segments.append(.placeholder(name))
                rest = after[after.index(after: close)...]
            } else {
                literal.append("{")
                rest = after
            }
        }
        literal += rest
        if !literal.isEmpty { segments.append(.literal(literal)) }
        guard segments.contains(.placeholder("out")) else { throw CommandTemplateError(template: text, reason: "the template never names {out}, the file the command must write") }
        self.segments = segments
    }

    /// The placeholders the template uses, in order of first use.
    public var usedPlaceholders: [String] {
        var seen: [String] = []
        for case .placeholder(let n) in segments where !seen.contains(n) { seen.append(n) }
        return seen
    }

    /// The shell command for one call: every placeholder replaced by its quoted value from
    /// `values` (or ``fixed``).
    /// - Throws: ``ResizerError/unsupported(_:)`` naming a placeholder without a value.
    public func command(_ values: [String: String]) throws(ResizerError) -> String {
        var out = ""
        for segment in segments {
            switch segment {
            case .literal(let s): out += s
            case .placeholder(let name):
                guard let v = values[name] ?? fixed[name] else {
                    throw .unsupported("the template uses {\(name)}, which \(values["kind"] ?? "this operation") does not define")
                }
                out += Self.quoted(v)
            }
        }
        return out
    }

    /// `value` as one POSIX shell word: bare when every character is safe, else single-quoted.
    public static func quoted(_ value: String) -> String {
        let safe = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._/+,:=@%-")
        if !value.isEmpty && value.allSatisfy({ safe.contains($0) }) { return value }
        return "'" + value.replacingOccurrences(of: "'", with: "'\"'\"'") + "'"
    }
}

/// A command template that cannot be used, with the template and the reason.
public struct CommandTemplateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The template as written.
    public var template: String
    /// What is wrong.
    public var reason: String

    public var description: String { "command template \(template): \(reason)" }
}
