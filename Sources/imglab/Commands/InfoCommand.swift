import Foundation
import ImageCore
import ImageCodecs

/// `imglab info FILE...`: what each file is, in Quartz's terms, and whether a bitmap context
/// can be created with its own parameters.
enum InfoCommand: Command {
    static let name = "info"
    static let summary = "describe image files: size, orientation, pixel format in Quartz terms, ICC, frames"
    static let help = """
    USAGE: imglab info [--json] FILE...

    For each file: the container (found by content, not extension), the stored size and the
    display size after EXIF/TIFF orientation, where the orientation was found, the pixel
    format in Quartz terms (bits per component and per pixel, components, the
    kCGImageAlpha… constant, byte order), the colour model (palette size and transparency),
    the ICC profile (size, description), animation (frames, delays, loop count), and the
    bitmap-context verdict: whether CGBitmapContextCreate accepts the image's own parameters
    on iOS and on macOS — and if not, which format to draw into instead. That verdict answers
    "CGBitmapContextCreate: unsupported parameter combination".

    OPTIONS:
      --json            one JSON array with an object per file (keys include width, height,
                        displayWidth, displayHeight, orientation, hasAlpha, bitsPerComponent,
                        container, frames)
      --max-pixels N    refuse frames larger than N pixels (default 268402689 = 16383²)

    EXIT STATUS: 0 when every file was read, 1 when any could not be, 2 on a usage error.

    EXAMPLES:
      imglab info photo.jpg
      imglab info --json Corpus/sources/*.png | jq '.[] | {width, height, orientation}'
    """

    static func run(_ argv: [String]) throws(UsageError) -> ExitStatus {
        let args = try Arguments(argv, valued: ["--max-pixels"], flags: ["--json"])
        if args.flag("--help") { print(help); return .ok }
        guard !args.positionals.isEmpty else { throw UsageError("no file given") }
        var options = DecodeOptions()
        options.limits.maxPixels = try args.int("--max-pixels", default: options.limits.maxPixels, in: 1...Int.max)

        var infos: [FileInfo] = []
        var status = ExitStatus.ok
        for path in args.positionals {
            do {
                let info = try FileInfo.inspect(path: path, options: options)
                infos.append(info)
                if info.decodeError != nil { status = .failure }
                if !args.flag("--json") { print(render(info)) }
            } catch {
                status = .failure
                printError("imglab info: \(path): \(error)")
            }
        }
        if args.flag("--json") {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            if let data = try? encoder.encode(infos) { print(String(decoding: data, as: UTF8.self)) }
        }
        return status
    }

    /// The human-readable block for one file.
    static func render(_ i: FileInfo) -> String {
        var lines = [i.path]
        func add(_ key: String, _ value: String) {
            lines.append("  " + key.padding(toLength: 15, withPad: " ", startingAt: 0) + value)
        }
        let props = i.properties.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        add("container", i.container.uppercased() + (props.isEmpty ? "" : " (" + props.joined(separator: ", ") + ")"))
        let stored = "\(i.width)×\(i.height)"
        add("size", i.displayWidth == i.width && i.displayHeight == i.height
            ? stored : "\(stored) stored, \(i.displayWidth)×\(i.displayHeight) displayed")
        add("orientation", "\(i.orientation) (\(i.orientationName))" + (i.orientationSource.map { " from \($0)" } ?? ", none declared"))
        add("pixel format", i.format.summary + (i.storedBitDepth.map { $0 != i.bitsPerComponent ? "; file declares \($0)-bit" : "" } ?? ""))
        add("", "\(i.format.bitsPerComponent) bits/component, \(i.format.bitsPerPixel) bits/pixel, \(i.format.components) component\(i.format.components == 1 ? "" : "s"), \(i.format.alphaInfo), \(i.format.byteOrder)\(i.format.floatComponents ? ", kCGBitmapFloatComponents" : "")")
        var model = i.format.colorModel
        if let n = i.format.paletteEntries {
            model += ", \(n) palette entries, \(i.format.transparentPaletteEntries ?? 0) transparent"
        }
        add("colour model", model)
        if let icc = i.icc {
            add("ICC", "\(icc.size) bytes" + (icc.description.map { ", \"\($0)\"" } ?? "")
                + (icc.colorSpace.map { " (\($0.trimmingCharacters(in: .whitespaces))\(icc.version.map { ", v\($0)" } ?? ""))" } ?? ""))
        } else {
            add("ICC", "none")
        }
        if let g = i.gamma { add("gamma", String(format: "%.5f", g)) }
        if let s = i.sRGBIntent { add("sRGB", "rendering intent \(s)") }
        if i.frames > 1 {
            let delays = (i.delays ?? []).prefix(6).map { String(format: "%.3g s", $0) }.joined(separator: ", ")
            let loops = i.loopCount.map { $0 == 0 ? "loops forever" : "plays \($0)×" } ?? ""
            add("animation", "\(i.frames) frames; delays \(delays)\((i.delays?.count ?? 0) > 6 ? ", …" : ""); \(loops)")
        }
        let c = i.bitmapContext
        add("bitmap context", "iOS \(c.iOS ? "yes" : "no"), macOS \(c.macOS ? "yes" : "no")" + (c.reason.map { ": \($0)" } ?? ""))
        if !c.iOS { add("", "draw into on iOS: \(c.drawIntoOnIOS.summary)") }
        if !c.macOS { add("", "draw into on macOS: \(c.drawIntoOnMacOS.summary)") }
        if let e = i.decodeError { add("decode error", e) }
        return lines.joined(separator: "\n")
    }
}
