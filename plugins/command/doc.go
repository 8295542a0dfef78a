// Package command is the provider of the "command" package, compatible in
// tokens and properties with the local part of pulumi-command 1.x: the
// resource command:local:Command and the function command:local:run.
//
// A Command runs its create command when it is created; when its inputs
// change it runs its update command, or create again when it has no update
// command; when it is deleted it runs its delete command, if it has one.
// A change to triggers replaces it instead (delete of the old one, create
// of the new one). Commands run with the interpreter (default /bin/sh -c,
// cmd /C on Windows) in dir (default the working directory), with the
// process's environment plus environment, stdin on standard input and,
// unless addPreviousOutputInEnv is false, the stdout and stderr of the
// previous create or update in PULUMI_COMMAND_STDOUT and
// PULUMI_COMMAND_STDERR. Outputs are the inputs plus stdout and stderr
// (without a final newline) and the files matched by assetPaths (assets) and
// archivePaths (archive).
//
// A command that exits with a status other than 0 fails the step with an
// *Error: the exit code and the end of its stderr. The custom timeouts of
// the resource bound each command; when one passes, the command and every
// process it started are killed, as they are when the engine signals
// cancellation. A preview runs nothing: a create or update that would run a
// command has unknown stdout and stderr. command:local:run runs its command
// every time, previews included. Neither autonames anything. A Command's ID
// is its name with a random suffix: none of its inputs, secret or not,
// shows in it.
//
// The logging input is accepted and checked, but a provider has no channel
// to the deployment's log yet, so nothing is logged.
//
//	host := provider.Factories{command.Factory()}
package command
