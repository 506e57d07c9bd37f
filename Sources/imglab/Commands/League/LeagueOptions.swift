import CommandLineOptions
import ImageLab

/// The prose of `imglab league --help`.
extension LeagueCommand {
    static let help = Help(about: """
        Runs each resizer through the lab exactly as 'imglab run' would and puts the results side by side
        (Markdown on stdout, HTML, JSON): pass, fail, error, skipped, pairs a declared policy changed,
        failures grouped by diagnosis, errors by message. External resizers are cmd: templates or configs
        with declared policies (srgb light, rounding, orientation, operations, …) that the gates honour;
        ready configs, built into imglab (their files are in benchmarks/resizers/): vipsthumbnail,
        imagemagick, pillow, imglab-cli. A config whose program is not installed is skipped with a message.
        --profile quick judges the pairs of the quick corpus (--corpus) as 'imglab run' judges them.
        With --profile scale the sources (24 to 96 megapixels) are streamed once into a temporary folder
        and every resizer's calls are measured one at a time; the table adds each resizer's CPU time as a
        ratio to the floor (imglab decode at the scale a correct shrink-on-load uses) and its peak memory,
        and a second table gives them pair by pair.
        """, exitStatus: """
          0  the league ran (whatever the verdicts: it compares, it does not gate)
          2  bad usage, an unreadable config, a corpus or gates file that cannot be read
        """, examples: [
            "imglab league",
            "imglab league --resizer builtin --resizer vipsthumbnail",
            "imglab league --profile scale --report Reports/league-scale   costs beside pass/fail, ratios to one floor",
            "imglab league --resizer builtin --resizer cmd:'imglab resize {in} -o {out} --size {width}x{height}' "
                + "--filter '*/resize-aspectFit-24x24'"],
        docs: "docs/league.md, docs/external-resizers.md")
}
