import CommandLineOptions
import ImageCodecs
import ImageReports

/// `imglab info FILE...`: what each file is, in Quartz's terms, and whether a bitmap context
/// can be created with its own parameters.
enum InfoCommand: Command {
    static let name = "info"
    static let summary = "describe image files: size, orientation, pixel format in Quartz terms, ICC, frames"
    static let positionals = Positionals(synopsis: "FILE...", count: 1...Int.max, problem: "no file given")
    static let json = SharedOptions.json("write one JSON array with an object per file to FILE; its keys include "
        + "width, height, displayWidth, displayHeight, orientation, hasAlpha, bitsPerComponent, container, frames")
    static let decode = Option.flag("--decode", "also decode the pixels (within --max-memory) and report whether they "
        + "decode; without it only the header is read")
    static let options: [any OptionDeclaration] = [json, SharedOptions.maxPixels, decode, SharedOptions.maxMemory]
    static let help = Help(about: """
        Reads each file's header only (no pixel is decoded unless --decode): the container (found by
        content), the stored and the displayed size, where the orientation was found, the pixel format in
        Quartz terms (bits per component and pixel, the kCGImageAlpha… constant, byte order), colour model,
        ICC, animation, and the bitmap-context verdict:
        whether CGBitmapContextCreate accepts the image's own parameters on iOS and macOS, and if not, what
        to draw into ("CGBitmapContextCreate: unsupported parameter combination").
        """, exitStatus: "  0 every file was read, 1 any could not be, 2 a usage error",
        examples: ["imglab info photo.jpg", "imglab info --json photos.json photos/*.jpg",
                   "imglab info --json - Corpus/sources/*.png | jq '.[] | {width, height, orientation}'"],
        docs: "docs/info.md")

    static func run(_ args: Arguments) throws(UsageError) -> ExitStatus {
        var options = DecodeOptions()
        options.limits.maxPixels = try args.value(SharedOptions.maxPixels)
        options.limits.maxBytes = try args.value(SharedOptions.maxMemory)
        let jsonPath = try args.value(json), decodingPixels = try args.value(decode)
        if let jsonPath { try OutputPaths.check([(json.name, jsonPath)], inputs: args.positionals) }
        var infos: [FileInfo] = []
        var status = ExitStatus.ok
        for path in args.positionals {
            do {
                let info = try FileInfo.inspect(path: path, options: options, decodingPixels: decodingPixels)
                infos.append(info)
                if info.decodeError != nil { status = .failure }
                if jsonPath != "-" { print(info.text) }
            } catch {
                status = .failure
                printError("imglab info: \(path): \(error)")
            }
        }
        if let text = FileInfo.json(infos), !OutputPaths.writeText(text, to: jsonPath, command: name) { return .usage }
        return status
    }
}
