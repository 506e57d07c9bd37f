import Foundation
import ImageCore
import ImageMetrics
import Testing

/// Expects `actual` to match the golden image `name` of this test file, compared by value under
/// `gate`; on a mismatch records a Swift Testing issue whose text carries the metrics, the gate
/// clauses that failed, the diagnosis (the bug class that explains the difference) and the path
/// of a one-case HTML report. Swift Testing runs on Linux, where swift-snapshot-testing has no
/// image strategy.
///
/// Goldens live at `__Goldens__/<TestFile>/<name>.png` beside the test file (commit them). A
/// missing golden is an issue that says how to record it. Record mode (`record: true`, or
/// `IMGLAB_RECORD=1` in the environment) writes the golden atomically and records an issue, so
/// a test never passes while recording (an image identical by value to the stored golden is not
/// rewritten and passes).
///
/// ```swift
/// @Test func squareThumbnail() throws {
///     let thumb = try photo.squareThumbnail(size: 64)
///     try expectImage(thumb, matches: "squareThumbnail-64", gate: "deltaE00.p99 <= 1 && alpha.max <= 1")
/// }
/// ```
/// - Parameters:
///   - gate: an `imglab diff --gate` expression (default ``ImageExpectation/defaultGate``:
///     every channel within one 8-bit code value).
/// - Throws: ``ImageExpectationError`` for a bad name or gate, an unreadable golden or a failed write.
///   - ignoring: pixels left out of the comparison (``IgnoredPixels``: rectangles and a mask
///     image, in the golden's displayed pixels; a mask of another size throws); none by default.
public func expectImage(_ actual: Image, matches name: String, gate: String = ImageExpectation.defaultGate,
                        record: Bool = ImageExpectation.recordFromEnvironment, ignoring: IgnoredPixels = IgnoredPixels(),
                        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) throws(ImageExpectationError) {
    let outcome = try ImageExpectation.standard.check(actual, matches: name, gate: gate, record: record, ignoring: ignoring, filePath: filePath)
    report(outcome, at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// Expects `actual` to match `reference` (an image the test made or read, e.g. an analytic
/// oracle) under `gate`; on a mismatch records an issue like the golden form, with a one-case
/// report named `name` (default: the test file's name and the line).
public func expectImage(_ actual: Image, matches reference: Image, gate: String = ImageExpectation.defaultGate, name: String? = nil,
                        ignoring: IgnoredPixels = IgnoredPixels(),
                        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) throws(ImageExpectationError) {
    let label = name ?? "\(ImageExpectation.testFileName(filePath))-line\(line)"
    let outcome = try ImageExpectation.standard.check(actual, matches: reference, gate: gate, name: label, ignoring: ignoring, filePath: filePath)
    report(outcome, at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// Records the outcome's issue, unless it matched, and attaches the one-case report (Swift
/// Testing saves attachments where `swift test --attachments-path DIR` says).
func report(_ outcome: ImageExpectation.Outcome, at location: SourceLocation) {
    guard outcome.kind != .matched else { return }
    Issue.record(Comment(rawValue: outcome.message), sourceLocation: location)
    if let path = outcome.reportPath, let data = FileManager.default.contents(atPath: path) {
        Attachment.record([UInt8](data), named: URL(fileURLWithPath: path).lastPathComponent, sourceLocation: location)
    }
}
