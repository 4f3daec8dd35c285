package tmpdeps

import (
	_ "github.com/adrg/frontmatter"
	_ "github.com/go-git/go-git/v5"
	_ "github.com/gofrs/flock"
	_ "github.com/rogpeppe/go-internal/testscript"
	_ "github.com/sashabaranov/go-openai"
	_ "github.com/sergi/go-diff/diffmatchpatch"
	_ "github.com/spf13/cobra"
	_ "github.com/yuin/goldmark"
	_ "gopkg.in/yaml.v3"
)
