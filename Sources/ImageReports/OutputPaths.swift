import CommandLineOptions
import Foundation
import ImageCodecs

/// Output paths checked before a command does any work (docs/safe-writes.md): each must be a
/// new path or a regular file (``OutputFile/check(_:)``), or `-` for standard output when that
/// is not a terminal; none may be the same file as an input (same device and inode) unless
/// `overwrite`, and no two outputs may be the same file.
public enum OutputPaths {
    /// The options whose output is text, which may be written to a terminal.
    public static let textOptions: Set<String> = ["--json", "--junit"]

    /// Throws the usage error for the first output that breaks a rule; `outputs` pairs each
    /// option's name with its path.
    public static func check(_ outputs: [(option: String, path: String)], inputs: [String], overwrite: Bool = false,
                      overwriteOption: String? = nil) throws(UsageError) {
        var seen: [(option: String, path: String, identity: OutputFile.Identity?)] = []
        for output in outputs {
            if output.path == OutputFile.standardOutput {
                // Text (JSON, XML) may go to a terminal; an image may not.
                guard isatty(STDOUT_FILENO) == 0 || textOptions.contains(output.option) else {
                    throw UsageError("\(output.option) - writes to standard output, which is a terminal here: redirect "
                        + "it (> FILE, | …) or name a file")
                }
                if let other = seen.first(where: { $0.path == output.path }) {
                    throw UsageError("\(other.option) and \(output.option) both write to standard output")
                }
                seen.append((output.option, output.path, nil))
                continue
            }
            do { _ = try OutputFile.check(output.path) } catch { throw UsageError("\(output.option) \(output.path): "
                + "\(error)") }
            let identity = OutputFile.identity(output.path)
            if let identity, !overwrite, let input = inputs.first(where: { OutputFile.identity($0) == identity }) {
                let remedy = overwriteOption.map { ": add \($0) to replace it" } ?? "; write it elsewhere"
                throw UsageError("\(output.option) \(output.path) is the same file as the input \(input)\(remedy)")
            }
            let same = seen.first { $0.path == output.path || (identity != nil && $0.identity == identity) }
            if let other = same {
                throw UsageError("\(other.option) and \(output.option) name the same file, \(output.path)")
            }
            seen.append((output.option, output.path, identity))
        }
    }

    /// Checks the outputs given to these options (``check(_:inputs:overwrite:overwriteOption:)``).
    public static func check(_ args: Arguments, _ options: [Option<String?>], inputs: [String]) throws(UsageError) {
        var outputs: [(option: String, path: String)] = []
        for option in options { if let path = try args.value(option) { outputs.append((option.name, path)) } }
        try check(outputs, inputs: inputs)
    }

    /// The report folder of `--report`: the value given or `fallback`, `nil` for `none`; checked
    /// as a folder imglab may write (``checkFolder(option:_:)``).
    public static func reportFolder(_ args: Arguments, _ option: Option<String?>,
                             default fallback: String) throws(UsageError) -> String? {
        let given = try args.value(option) ?? fallback
        guard given != "none" else { return nil }
        try checkFolder(option: option.name, given)
        return given
    }

    /// `text` as the path of a text output (`--json FILE`), refused when it names an image
    /// (`--json photo.png`, where the option was meant as a flag), so an input is never taken
    /// for the output.
    public static func textFile(_ text: String, option: String) throws(UsageError) -> String {
        let ext = (text as NSString).pathExtension
        if ContainerFormat(fileExtension: ext) != nil || ["webp", "heic", "heif", "avif"].contains(ext.lowercased()) {
            throw UsageError("\(option) takes the FILE to write to (or - for standard output), and '\(text)' names an "
                + "image; write \(option) - to print it")
        }
        return text
    }

    /// Throws the usage error when `path` is not a folder a report may be written to
    /// (``OutputFolder/check(_:)``: new, empty, or written by imglab).
    public static func checkFolder(option: String, _ path: String) throws(UsageError) {
        do { try OutputFolder.check(path) } catch { throw UsageError("\(option) \(path): \(error)") }
    }
}
