import CommandLineOptions
import ImageReports

/// The options of `imglab accept` and the prose of its `--help`.
extension AcceptCommand {
    static let from = Option<String?>.text("--from", "RESULTS.json", "accept the changed, new and deleted files of the "
        + "folder diff whose --json this is (its folders and --match)")
    static let match = DiffCommand.match
    static let undo = Option<String?>.text("--undo", "ID", "put back the files of history entry ID (or 'last': the "
        + "latest acceptance not undone) as they were before it; recorded as an entry of its own")
    static let history = Option.flag("--history", "list the baseline folder's history entries")

    static let help = Help(about: """
        Makes chosen files of BASELINE what they are in ACTUAL: a changed file's actual copied over its
        baseline, a new one added, a deleted one removed. Files are paired as 'imglab diff BASELINE ACTUAL'
        pairs them. A NAME is a key (the relative path), or a glob over the relative paths ('*' and '?'
        cross '/': '*.png' is every PNG); a NAME that chooses nothing is an error and nothing changes.
        A folder diff's report lets you tick files and copy the exact command.

        Nothing is lost: every change is first recorded in BASELINE/.imglab-history/ID/ (the files before and
        after, record.json), then each baseline file is replaced atomically. A kill leaves every file whole,
        old or new, and the next 'imglab accept' of the folder finishes the entry. --undo ID puts an entry's
        files back; --history lists the entries. Links, FIFOs and devices in BASELINE are refused.
        """, exitStatus: "  0 accepted (or nothing to change), 1 a file could not be written, 2 bad usage or "
            + "unreadable input",
        examples: ["imglab accept baseline/ shots/ home.png 'icons/*.png'",
                   "imglab accept --from diff.json          every changed, new and deleted file of that folder diff",
                   "imglab accept baseline/ --undo last", "imglab accept baseline/ --history"], docs: "docs/accept.md")
}
