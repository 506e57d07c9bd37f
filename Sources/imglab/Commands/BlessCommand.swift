import CommandLineOptions
import Foundation
import ImageLab
import ImageReports

/// `imglab bless`: accept the resizer's current outputs as goldens.
enum BlessCommand: Command {
    static let name = "bless"
    static let summary = "accept the resizer's current outputs as goldens (atomic, crash-safe)"
    static let resizer = SharedOptions.resizer("the resizer whose outputs become goldens: builtin (default), "
        + "mutant:ID, cmd:TEMPLATE or config:FILE")
    static let obsolete = Option.flag("--obsolete", "list the goldens of pairs the corpus no longer has, and files "
        + "no golden names; change nothing")
    static let prune = Option.flag("--prune", "remove what --obsolete lists (the index first, then the files)")
    static let exclusive: [[any OptionDeclaration]] = [[obsolete, prune]]
    static let options: [any OptionDeclaration] = [resizer, SharedOptions.corpus, SharedOptions.goldens,
        SharedOptions.filter, SharedOptions.threads, obsolete, prune]
    static let help = Help(about: """
        Runs the resizer on the selected pairs exactly as 'imglab run' does and adds each output to the
        golden store (DIR/files/HASH.png, DIR/index.json with each golden's distance to the oracle); an
        output equal to an existing golden adds nothing. Crash-safe: files are written atomically before
        the index, nothing is overwritten. Failing pairs are blessed too: the oracle says what is right.
        --obsolete lists the goldens of pairs the corpus's manifest no longer has (a case or operation renamed
        or dropped) and unreferenced files; --prune removes them.
        """, exitStatus: "  0 blessed, 1 the store could not be written, 2 bad usage or the run failed",
        examples: ["imglab bless", "imglab bless --filter 'png-rgba8-*/resize-aspectFit-24x24'",
                   "imglab bless --obsolete && imglab bless --prune"], docs: "docs/goldens.md")

    static func run(_ args: Arguments) throws(UsageError) -> ExitStatus {
        // Goldens are the user's to keep: never in the cache folder, where a generated corpus may live.
        let local = FileManager.default.fileExists(atPath: CorpusLocation.localFolder + "/manifest.json")
        if !args.has(SharedOptions.corpus), !args.has(SharedOptions.goldens), !local {
            throw UsageError("goldens are kept beside a corpus of yours, and there is no "
                + "./\(CorpusLocation.localFolder) here: make one with 'imglab corpus --out "
                + "\(CorpusLocation.localFolder)' (or give --goldens DIR, or --corpus DIR)", pointsToHelp: false)
        }
        let corpus = try SharedOptions.corpusFolder(args, command: name), chosen = try args.value(resizer)
        let filter = try args.value(SharedOptions.filter), threads = try args.value(SharedOptions.threads)
        let blessing = Blessing(corpus: corpus, goldens: try args.value(SharedOptions.goldens),
                                resizer: chosen ?? BuiltinResizer(), filter: filter, threads: threads,
                                afterWrite: try WriteFaultPoint.fromEnvironment())
        if args.has(obsolete) || args.has(prune) {
            do { print(try blessing.obsolete(removing: args.has(prune))); return .ok }
            catch { printError("imglab bless: \(error)"); return .failure }
        }
        do {
            let done = try blessing.run()
            let failing = done.failing > 0 ? "; \(done.failing) blessed pair(s) fail their gate" : ""
            print("imglab bless: \(done.added) golden(s) added to \(blessing.folder) (\(done.outputs - done.added) "
                + "already blessed)\(failing)")
            return .ok
        } catch {
            printError("imglab bless: \(error)")
            if case .run = error { return .usage }
            return .failure
        }
    }

}
