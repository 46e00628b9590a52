// Command tollgate-guard is the agent guard's lean binary: `tollgate guard` without gitleaks,
// the review scanners or the model linked in, so that a coding agent's pre-tool hook starts in
// a few milliseconds instead of tens. It judges what needs none of them (shell commands, reads,
// the paths of writes) with the same rules and policy as `tollgate guard`, and hands every
// other call (content to scan, an Ask the configured model would consult on) unchanged to the
// full tollgate binary beside it. `tollgate install --agent` uses it when it is installed next
// to tollgate.
//
// Rules and guarantees:
//   - It never judges content: a call that writes content goes to the full binary, or, when
//     there is none beside it, is answered ask (deny where the agent cannot ask).
//   - It judges only when the full binary beside it is the same build (policy.FullTollgate);
//     otherwise every call goes to the full binary.
//   - Like `tollgate guard`, it never crashes out: every failure is an explicit answer.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/tollgate-dev/tollgate/hook/agent"
	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/review/guard/serve"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "guard" {
		args = args[1:]
	}
	fs := flag.NewFlagSet("tollgate-guard", flag.ContinueOnError)
	fs.SetOutput(stderr)
	name := fs.String("agent", "", "the agent whose hook format is on stdin: "+strings.Join(agent.Names(), ", "))
	config := fs.String("config", "", "user config `FILE` (instead of ~/.config/tollgate/config.toml)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: tollgate-guard [guard] --agent "+strings.Join(agent.Names(), "|")+" [--config FILE]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	a, ok := agent.Get(*name)
	if fs.NArg() > 0 || !ok {
		fmt.Fprintf(stderr, "tollgate: error: --agent must be one of %s, got %q, and no arguments\n", strings.Join(agent.Names(), ", "), *name)
		fmt.Fprintln(stderr, "tollgate: hint: tollgate-guard [guard] --agent claude")
		return 2
	}
	serve.GuardGC()
	data, readErr := serve.Read(stdin)
	same, fullErr := policy.FullTollgate()
	if fullErr == nil && !same {
		// another build's rules: it judges every call
		return handOver(ctx, a, *config, data, readErr, stdout, stderr)
	}
	out, over := serve.Judge(ctx, a, data, readErr, *config, serve.Extras{NoFull: fullErr}, stderr)
	if !over {
		return write(out, stdout, stderr)
	}
	return handOver(ctx, a, *config, data, readErr, stdout, stderr)
}

// handOver runs the full tollgate beside this binary on the same input; when it cannot start,
// the call is judged here with that reason (content and model asks answered Ask).
func handOver(ctx context.Context, a agent.Agent, config string, data []byte, readErr error, stdout, stderr io.Writer) int {
	args := []string{"guard", "--agent", a.Name()}
	if config != "" {
		args = append(args, "--config", config)
	}
	code, err := policy.Handoff(ctx, args, data, stdout, stderr)
	if err == nil {
		return code
	}
	out, _ := serve.Judge(ctx, a, data, readErr, config, serve.Extras{NoFull: err}, stderr)
	return write(out, stdout, stderr)
}

func write(out agent.Output, stdout, stderr io.Writer) int {
	stdout.Write(out.Stdout)
	if out.Stderr != "" {
		fmt.Fprintln(stderr, out.Stderr)
	}
	return out.Exit
}
