// Command parquetrows prints the rows of a Parquet file with a string column "text" and an
// integer column "label" as JSON Lines ({"text": ..., "label": ...}). scripts/injcorpus.go runs
// it for the prompt-injection sets published as Parquet (deepset's prompt-injections). It is a
// module of its own so that the Parquet library never becomes a dependency of tollgate.
//
// Usage: go run . FILE.parquet
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/parquet-go/parquet-go"
)

type row struct {
	Text  string `parquet:"text"`
	Label int64  `parquet:"label"`
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: parquetrows FILE.parquet")
		os.Exit(2)
	}
	rows, err := parquet.ReadFile[row](os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "parquetrows:", err)
		os.Exit(1)
	}
	enc := json.NewEncoder(os.Stdout)
	for _, r := range rows {
		if err := enc.Encode(map[string]any{"text": r.Text, "label": r.Label}); err != nil {
			fmt.Fprintln(os.Stderr, "parquetrows:", err)
			os.Exit(1)
		}
	}
}
