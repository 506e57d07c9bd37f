import ImageCore

/// The plug-in point of the lab: a resizer under test. The runner decodes each corpus file,
/// hands the decoded ``Image`` and one ``LabOperation`` to the adapter, and compares the
/// returned image with the operation's oracle.
///
/// Contract: the result is upright (orientation `.up`), sized in output pixels by the
/// operation (``LabOperation`` documents each size), in any pixel format the adapter likes
/// (the comparison reads values, not layouts). Animated inputs carry their frames in
/// `Image.animation`; a resizer that keeps them returns them the same way.
/// Adapters must be safe to call from several threads at once (the runner is parallel).
public protocol Resizer: Sendable {
    /// The adapter's name in results, JUnit and the report (`builtin`, `swap-rb(builtin)`).
    var name: String { get }
    /// Applies `operation` to the decoded `source`.
    /// - Throws: ``ResizerError`` when the resizer cannot produce an output.
    func apply(_ operation: LabOperation, to source: Image) throws(ResizerError) -> Image
    /// Applies `operation` to the source file at `path`, which the runner has already decoded as
    /// `source`. For adapters whose operation reads files itself (an ImageIO-style thumbnail that
    /// decodes a JPEG at a reduced DCT scale); the default applies `operation` to `source`.
    func apply(_ operation: LabOperation, toFile path: String, decoded source: Image) throws(ResizerError) -> Image
}

extension Resizer {
    /// The default: the file is ignored, the decoded image is resized.
    public func apply(_ operation: LabOperation, toFile path: String, decoded source: Image) throws(ResizerError) -> Image {
        try apply(operation, to: source)
    }
}

/// Why a resizer produced no output for a (case, operation) pair; the runner records it as an
/// `error` verdict with this message.
public enum ResizerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The resizer does not implement this operation or input (e.g. a format it rejects).
    case unsupported(String)
    /// The resizer tried and failed; the message is its own.
    case failed(String)

    public var description: String {
        switch self {
        case .unsupported(let why): return "unsupported: \(why)"
        case .failed(let why): return "failed: \(why)"
        }
    }
}
