import Testing
import ImageCore
@testable import ImageMetrics

/// An orientation finding stated against the source's EXIF tag (``Diagnosis/stated(againstSourceTag:)``);
/// the expected phrases worked out by hand from the tags' meanings (2 = mirrored across, 3 = half
/// turn, 4 = mirrored down, 6 = a quarter turn clockwise to display, 8 = the other quarter turn).
@Suite("Orientation stated against the source's tag")
struct OrientationStatementTests {
    static func finding(_ n: Int) -> Diagnosis {
        let name = "pixels transformed by EXIF orientation \(n)"
        return Diagnosis(bugClass: "orientation", candidate: "orientation.\(n)", name: name, references: [], confidence: 1,
                         explained: 1, summary: "\(name): explains 100% of the difference", ranking: [], sampledPixels: 1)
    }

    @Test("tag 6 undone by a quarter turn back (8) was ignored; turned by 6 again it was applied twice, a half turn (3) from the stored pixels")
    func quarterTurn() {
        #expect(Self.finding(8).stated(againstSourceTag: .right).summary
            == "EXIF orientation 6 (right) ignored: the stored pixels came back unturned: explains 100% of the difference")
        #expect(Self.finding(6).stated(againstSourceTag: .right).name
            == "EXIF orientation 6 (right) applied twice: the stored pixels turned by 3 (down) in all, one right turn past upright")
    }

    @Test("a half turn (3) ignored and applied twice give the same picture, and the statement says both")
    func halfTurnIsItsOwnInverse() {
        #expect(Self.finding(3).stated(againstSourceTag: .down).name?.contains("ignored or applied twice") == true)
    }

    @Test("tag 2 (mirrored across) whose picture is a half turn from upright was drawn as tag 4 (mirrored down)")
    func mirrorDrawnAsTheOtherMirror() {
        #expect(Self.finding(3).stated(againstSourceTag: .upMirrored).name == "EXIF orientation 2 (upMirrored) drawn as orientation 4 (downMirrored)")
    }

    @Test("an upright source says so; a diagnosis of another class is unchanged")
    func uprightAndOtherClasses() {
        #expect(Self.finding(6).stated(againstSourceTag: .up).name?.hasPrefix("the source is upright (tag 1)") == true)
        let other = Diagnosis(bugClass: "channel-order", candidate: "channels.bgr", name: "red and blue swapped", references: [],
                              confidence: 1, explained: 1, summary: "s", ranking: [], sampledPixels: 1)
        #expect(other.stated(againstSourceTag: .right) == other)
    }
}
