import CommandLineOptions
import Foundation
import ImageCodecs
import ImageReports

/// The options of the commands that write an image: output path, container and encoder settings.
enum ImageOutput {
    static let path = Option<String?>.text("-o, --output", "FILE", "where to write; written atomically; - for standard "
        + "output (then --format is needed)").required().meaning("the file written")
    static let format = Option<ContainerFormat?>.choice("--format", "NAME", "the container; without it, the output "
        + "file's extension says", ContainerFormat.byName,
        aliases: ContainerFormat.aliases, ignoringCase: true)
    static let jpegQuality = Option.integer("--jpeg-quality", "Q", "JPEG quality", default: 90, in: 1...100)
    static let overwrite = Option.flag("--overwrite", "allow the output to be the input file itself (it is replaced); "
        + "without it that is a usage error")
    static let options: [any OptionDeclaration] = [path, format, jpegQuality, overwrite, SharedOptions.maxMemory]

    /// The output path, its container, the encoder settings and the decode limits (the memory budget
    /// of `--max-memory`); the path is checked by ``OutputPaths`` against `inputs` before anything is read.
    static func parse(_ args: Arguments, inputs: [String]) throws(UsageError) -> (path: String,
        container: ContainerFormat, encoding: EncodeOptions, limits: DecodeLimits) {
        let file = try args.value(path) ?? ""
        try OutputPaths.check([(path.name, file)], inputs: inputs, overwrite: try args.value(overwrite),
            overwriteOption: overwrite.name)
        let named = try args.value(format)
        guard let container = named ?? ContainerFormat(fileExtension: (file as NSString).pathExtension) else {
            throw UsageError("cannot tell the format from '\(file)': add --format png|jpeg|gif|tiff|bmp")
        }
        var encoding = EncodeOptions()
        encoding.jpegQuality = try args.value(jpegQuality)
        var limits = DecodeLimits.default
        limits.maxBytes = try args.value(SharedOptions.maxMemory)
        return (file, container, encoding, limits)
    }
}
