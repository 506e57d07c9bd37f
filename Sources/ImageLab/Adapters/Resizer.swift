import ImageCorpus
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
    /// Applies `operation` to the decoded `source`, which the file at `file` holds (a path the
    /// process can open), or `nil` when the lab hands over pixels that no file holds (e.g. the
    /// upright pixels fed to a resizer that declares it does not orient). Adapters that run an
    /// external program (``CommandResizer``) need the file; the default forwards to
    /// ``apply(_:to:)``, so adapters that work on decoded pixels implement only that.
    /// - Throws: ``ResizerError`` when the resizer cannot produce an output.
    func apply(_ operation: LabOperation, to source: Image, file: String?) throws(ResizerError) -> Image
    /// What the adapter declares about itself (light space, rounding, orientation, operations):
    /// the lab judges it against these declarations and labels every pair they affect. The
    /// default is ``ResizerPolicy/builtin``, the policies the committed oracle assumes.
    var policy: ResizerPolicy { get }
}

extension Resizer {
    /// Forwards to ``apply(_:to:)``: an adapter that works on decoded pixels ignores the file.
    public func apply(_ operation: LabOperation, to source: Image, file: String?) throws(ResizerError) -> Image {
        try apply(operation, to: source)
    }

    /// ``ResizerPolicy/builtin``.
    public var policy: ResizerPolicy { .builtin }
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
