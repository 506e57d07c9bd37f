import Testing
import ImageReports
@testable import ImageLab
@testable import ImageCorpus

/// The league's grouping of errors and its HTML page.
@Suite("League table")
struct LeagueTableTests {
    @Test("errors group by the text before the command and the stderr's last line, paths as … and digit runs as #")
    func errorKey() {
        let a = "resizer pillow: failed: exit status 1: /usr/bin/python3 /w/pillow_resize.py /c/a.tif /t/call-7/out.png orient; stderr: Traceback (most recent call last):\n  File \"/w/pillow_resize.py\", line 80, in <module>\nPIL.UnidentifiedImageError: cannot identify image file '/c/a.tif'"
        let b = "resizer pillow: failed: exit status 1: /usr/bin/python3 /w/pillow_resize.py /c/b.tif /t/call-9/out.png resize fit 24 24; stderr: Traceback (most recent call last):\n  File \"/w/pillow_resize.py\", line 41, in main\nPIL.UnidentifiedImageError: cannot identify image file '/c/b.tif'"
        let expected = "resizer pillow: failed: exit status #: … PIL.UnidentifiedImageError: cannot identify image file …"
        #expect(LeagueTable.errorKey(a) == expected)
        #expect(LeagueTable.errorKey(b) == expected)
        #expect(LeagueTable.errorKey("resizer x: failed: timed out after 30 s (process group killed): /bin/tool in out") == "resizer x: failed: timed out after # s (process group killed):")
    }

    @Test("the HTML page escapes every name and message and forbids the network")
    func htmlEscapes() {
        let entry = LeagueTable.notRun(resizer: "<script>alert(1)</script>", spec: "config:x.json", status: "not installed", note: "none of \"a&b\" is on PATH", policy: nil)
        let html = LeagueReport.html(LeagueTable(profile: "quick", corpus: "Corpus", entries: [entry]))
        #expect(!html.contains("<script>"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(html.contains("a&amp;b"))
        #expect(html.contains("default-src 'none'"))
    }
}
