// The scalafmt plugin: `make lint` checks the Scala code and the build files, `make format` rewrites them.
addSbtPlugin("org.scalameta" % "sbt-scalafmt" % "2.5.6")
