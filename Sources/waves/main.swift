import ArgumentParser
import Foundation
import WaveBench
import WaveCatalogue
import WaveCore
import WaveEffects
import WaveGL
import WaveImageIO

/// Entry point: parses, runs, and turns every error into one line on stderr
/// with a sysexits status (64 usage, 65 bad data, 69 unavailable, 73 cannot
/// create output). Help and version go to stdout.
// A reader that went away (stderr or stdout piped into a closed pipe) makes writes fail, never ends the process.
signal(SIGPIPE, SIG_IGN)
// A closed stderr becomes /dev/null, so no file the process opens can take descriptor 2 and receive its lines.
if fcntl(STDERR_FILENO, F_GETFD) < 0 && errno == EBADF {
    let null = open("/dev/null", O_WRONLY)
    if null >= 0 && null != STDERR_FILENO { dup2(null, STDERR_FILENO); close(null) }
}
// Freed heap kept resident (`HeapTrim`): a GL driver's blocks made and freed every frame reuse it.
HeapTrim.keepFreed(bytes: 64 << 20)
// GL joins the CPU among the backends the chooser knows; a policy named in the environment must be one.
GLBackend.register()
do { _ = try DriverPolicy.asked(in: ProcessInfo.processInfo.environment) } catch {
    printError("waves: \(error)")
    exit(ExitStatus.usage)
}
// The short form (--scene NAME) as the effect's own command; the arguments as typed where it cannot be.
var arguments = Array(CommandLine.arguments.dropFirst())
// audiowaveform's command line, under its name (a link) or as 'waves audiowaveform', is read as it reads it.
if CommandLine.arguments[0].split(separator: "/").last == "audiowaveform" {
    exit(Audiowaveform.run(arguments, programName: CommandLine.arguments[0]))
}
if arguments.first == LottiePeerChild.command { exit(LottiePeerChild.run(Array(arguments.dropFirst()))) }
if arguments.first == "audiowaveform" { exit(Audiowaveform.run(Array(arguments.dropFirst()), programName: "waves audiowaveform")) }
// A command whose effects are its subcommands lists its default effect's options in its own help.
if let help = ParentHelp.text(for: arguments) {
    print(help)
    exit(0)
}
do {
    arguments = try ShortForm.expand(arguments)
    var command = try Waves.parseAsRoot(arguments)
    try command.run()
} catch {
    let status = Failure.status(of: error)
    if status == 0 { Waves.exit(withError: error) }
    // A status chosen by the command itself (an interrupted bench) has said its piece.
    if error is ExitCode { exit(status) }
    // One error style: what is wrong, then where to read more.
    var command = arguments.first.flatMap { ["render", "demo", "bench", "peaks", "batch"].contains($0) ? $0 : nil }
    // An effect's own command ('waves render dots') has its own help, and so has a batch's ('waves batch plan').
    if let c = command, let i = arguments.firstIndex(of: c), i + 1 < arguments.count, Effects.names.contains(arguments[i + 1])
        || (c == "batch" && BatchCommand.configuration.subcommands.contains { $0.configuration.commandName == arguments[i + 1] }) {
        command = c + " " + arguments[i + 1]
    }
    printError("waves: " + Failure.message(of: error) + " (see 'waves\(command.map { " " + $0 } ?? "") --help')")
    exit(status)
}
