import Foundation

HardwareVariant.execIfSupported()

let argv = Array(CommandLine.arguments.dropFirst())
guard let verb = argv.first, verb != "--help", verb != "-h", verb != "help" else {
    print(Imglab.overview)
    PeakMemory.exit(argv.isEmpty ? ExitStatus.usage.rawValue : ExitStatus.ok.rawValue)
}
guard let command = Imglab.commands.first(where: { $0.name == verb }) else {
    printError("imglab: unknown command '\(verb)'\n\n\(Imglab.overview)")
    PeakMemory.exit(ExitStatus.usage.rawValue)
}
do {
    let args = try Arguments(Array(argv.dropFirst()), options: command.options, exclusive: command.exclusive, positionals: command.positionals)
    if args.wantsHelp {
        print(HelpText.render(command))
        PeakMemory.exit(ExitStatus.ok.rawValue)
    }
    PeakMemory.exit(try command.run(args).rawValue)
} catch {
    printError("imglab \(verb): \(error.message)\n\n\(HelpText.render(command))")
    PeakMemory.exit(ExitStatus.usage.rawValue)
}
