import CommandLineOptions
import Foundation
import ImageLab
import ImageReports

/// `imglab fingerprint --resizer R`: infers a resizer's contract from calibration images.
enum FingerprintCommand: Command {
    static let name = "fingerprint"
    static let summary = "infer a resizer's contract (kernel, light space, alpha, orientation, …) from test images"
    static let resizer = SharedOptions.resizer("the resizer to fingerprint, as in 'imglab run' (default: builtin)")
    static let json = SharedOptions.json("write the fingerprint (schema imglab-fingerprint/1) to FILE")
    static let writeConfig = Option<String?>.text("--write-config", "FILE", "write a resizer config declaring the "
        + "inferred design choices (kernel, light space, edges, size rounding), to review and commit (cmd: resizers)")
    static let exclusive: [[any OptionDeclaration]] = [[resizer, SharedOptions.resizerConfig]]
    static let options: [any OptionDeclaration] = [resizer, SharedOptions.resizerConfig, json, writeConfig]
    static let help = Help(about: """
        Runs calibration images through the resizer (a fine checker, colour bars and a dark ramp shrunk;
        two impulses enlarged; a red square over hidden green; a picture stored sideways with EXIF
        orientation 6; a 16-bit ramp; a two-frame APNG; three aspect fits) and infers what it does: the kernel,
        light space, antialiasing, edges, precision and pixel centres fitted among the kernel oracle's designs,
        then output rounding, channel order, alpha, orientation, 16-bit samples, animation and size rounding,
        each with its evidence and a confidence. Design choices are what a resizer may choose (judged
        against, reported once); defects fail whatever the design.
        """, exitStatus: "  0 fingerprinted, 1 no calibration image could be judged, 2 usage",
        examples: ["imglab fingerprint --resizer mutant:srgb-averaging --json fp.json",
            "imglab fingerprint --resizer cmd:'convert {in} -resize {width}x{height}! {out}' --write-config c.json"],
        docs: "docs/fingerprint.md")

    static func run(_ args: Arguments) throws(UsageError) -> ExitStatus {
        try OutputPaths.check(args, [json, writeConfig], inputs: [])
        let configured = try args.value(SharedOptions.resizerConfig), named = try args.value(resizer)
        let chosen = configured ?? named ?? BuiltinResizer()
        if args.has(writeConfig) && !(chosen is CommandResizer) {
            throw UsageError("--write-config writes the config of a cmd: or config: resizer, not of \(chosen.name)")
        }
        let fingerprint = ContractFingerprint.infer(chosen)
        let json = try args.value(json), configPath = try args.value(writeConfig)
        let config = configPath.flatMap { path in fingerprint.config(for: chosen, writtenTo: path).map { (path, $0) } }
        let text = (try? fingerprint.jsonData()).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        guard OutputPaths.writeText(text, to: json, command: name),
              OutputPaths.writeText(config?.1 ?? "", to: config?.0, command: name) else { return .usage }
        if json != "-" { FingerprintScreen.lines(fingerprint).forEach { print($0) } }
        return fingerprint.inferredAnything ? .ok : .failure
    }
}
