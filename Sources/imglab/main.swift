import ImageCodecs
import ImageCore

ImglabBuild.commit = BuildStamp.commit
Imglab.program.run(FileSystemName.commandLineArguments)
