package skillcmd

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/internal/boundedread"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/skill"
)

// ApplyOptions is what `skill apply` was asked.
type ApplyOptions struct {
	Factory *cmdutil.Factory
	Ctx     context.Context
	W       cmdutil.WriteFlags
	OpsFile string
}

// NewCmdApply is `skill apply`; runF, when not nil, runs instead of applyRun.
func NewCmdApply(f *cmdutil.Factory, runF func(*ApplyOptions) error) *cobra.Command {
	opts := &ApplyOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "apply --ops <file|->",
		Short: "Apply a batch of up to 20 operations as one commit",
		Long: `Apply a batch of skill operations atomically: all of them land in one commit,
or none does. The file holds the skill_manage "operations" shape:

  {"operations": [
    {"action": "create", "name": "x", "category": "c", "content": "---\n..."},
    {"action": "patch", "name": "x", "old_string": "a", "new_string": "b"},
    {"action": "write_file", "name": "x", "file_path": "references/r.md", "file_content": "..."},
    {"action": "remove_file", "name": "x", "file_path": "references/old.md"}
  ]}

A bare list of operations, and the legacy single-operation object, are
accepted too. delete must be the only operation of its batch.`,
		Example: `  skillrepo skill apply --ops batch.json
  skillrepo skill apply --ops - --origin background-review --review-id r-42 < batch.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.OpsFile == "" {
				return cmdutil.UsageErrorf("--ops is required (a JSON file, or - for standard input)")
			}
			opts.Ctx = cmd.Context()
			if err := opts.W.Check(); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return applyRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.OpsFile, "ops", "", "JSON file of operations (- for standard input)")
	cmdutil.AddWriteFlags(cmd, &opts.W)
	return cmd
}

func applyRun(opts *ApplyOptions) error {
	ops, err := readOps(opts.Factory, opts.OpsFile)
	if err != nil {
		return err
	}
	return applyOps(opts.Ctx, opts.Factory, &opts.W, ops)
}

// maxOpsBytes bounds an --ops document: a full batch of the largest
// files, JSON-quoted, with room to spare.
const maxOpsBytes = skillrepo.MaxBatchOps*skill.MaxFileBytes + skill.MaxFileBytes

// readOps accepts {"operations": [...]}, a bare list, or one legacy op.
func readOps(f *cmdutil.Factory, path string) ([]skillrepo.Op, error) {
	b, err := boundedread.ReadInput(path, f.IO.In, maxOpsBytes)
	if err != nil {
		return nil, cmdutil.InputError("--ops", err)
	}
	b = bytes.TrimSpace(b)
	var ops []skillrepo.Op
	if len(b) > 0 && b[0] == '[' {
		err = json.Unmarshal(b, &ops)
	} else {
		var wrapper struct {
			Operations []skillrepo.Op `json:"operations"`
		}
		var probe map[string]json.RawMessage
		if err = json.Unmarshal(b, &probe); err == nil {
			if _, ok := probe["operations"]; ok {
				err = json.Unmarshal(b, &wrapper)
				ops = wrapper.Operations
			} else {
				var op skillrepo.Op
				err = json.Unmarshal(b, &op)
				ops = []skillrepo.Op{op}
			}
		}
	}
	if err != nil {
		return nil, fmt.Errorf("parse operations in %s: %w", path, err)
	}
	return ops, nil
}
