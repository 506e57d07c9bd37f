import CommandLineOptions
import Foundation
import ImageCodecs
import ImageCore

ImglabBuild.commit = BuildStamp.commit
let argv = FileSystemName.commandLineArguments
guard let verb = argv.first, verb != "--help", verb != "-h", verb != "help" else {
    print(Imglab.overview)
    PeakMemory.exit(argv.isEmpty ? ExitStatus.usage.rawValue : ExitStatus.ok.rawValue)
}
if verb == "--version" || verb == "version" {
    print("imglab \(ImglabBuild.identity)")
    PeakMemory.exit(ExitStatus.ok.rawValue)
}
guard let command = Imglab.commands.first(where: { $0.name == verb }) else {
    printError("imglab: unknown command '\(verb)'\(Imglab.suggestion(for: verb)); 'imglab --help' lists the commands")
    PeakMemory.exit(ExitStatus.usage.rawValue)
}
do {
    let args = try Arguments(Array(argv.dropFirst()), options: command.options, exclusive: command.exclusive,
        positionals: command.positionals)
    if args.wantsHelp {
        print(HelpText.render(command, program: "imglab"))
        PeakMemory.exit(ExitStatus.ok.rawValue)
    }
    PeakMemory.exit(try command.run(args).rawValue)
} catch {
    // One line: what is wrong, and where the command's options are explained.
    printError("imglab \(verb): \(error.message)" + (error.pointsToHelp ? " (see 'imglab \(verb) --help')" : ""))
    PeakMemory.exit(ExitStatus.usage.rawValue)
}
