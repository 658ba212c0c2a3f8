/// The suites start programs with ``ChildProcess`` through this module.
@_exported import TestChildProcess
