import ImageCore
import ImageCodecs

/// Options shared by the commands that write an image: output path, container and encoder settings.
struct ImageOutput {
    static let valuedOptions: Set<String> = ["-o", "--output", "--format", "--jpeg-quality"]
    static let helpText = """
      -o, --output FILE      where to write (required); written atomically
      --format NAME          png, jpeg, gif, tiff or bmp (default: from the output's extension)
      --jpeg-quality Q       JPEG quality 1…100 (default 90)
    """

    var path: String
    var container: ContainerFormat
    var options: EncodeOptions

    init(_ args: Arguments) throws(UsageError) {
        guard let path = args.value("-o") ?? args.value("--output") else { throw UsageError("no output file: give -o FILE") }
        self.path = path
        if let name = args.value("--format") {
            guard let c = ContainerFormat(rawValue: name.lowercased()) ?? ContainerFormat(fileExtension: name) else {
                throw UsageError("unknown --format '\(name)': use png, jpeg, gif, tiff or bmp")
            }
            container = c
        } else {
            let ext = (path as NSString).pathExtension
            guard let c = ContainerFormat(fileExtension: ext) else {
                throw UsageError("cannot tell the format from '\(path)': add --format png|jpeg|gif|tiff|bmp")
            }
            container = c
        }
        options = EncodeOptions()
        options.jpegQuality = try args.int("--jpeg-quality", default: 90, in: 1...100)
    }

    /// Encodes and writes atomically; reports failures on stderr.
    func write(_ image: Image, command: String) -> ExitStatus {
        do {
            let bytes = try ImageCodecs.encode(image, as: container, options: options)
            try ImageCodecs.writeAtomically(bytes, to: path)
            return .ok
        } catch {
            printError("imglab \(command): \(path): \(error)")
            return .failure
        }
    }
}

import Foundation
