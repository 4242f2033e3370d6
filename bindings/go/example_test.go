package lspseam_test

import (
	"context"
	"fmt"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// The model's arguments go in one-based; the seam works zero-based.
func ExampleCore_ParseToolArgs() {
	ctx := context.Background()
	c, err := lspseam.NewCore(ctx)
	if err != nil {
		panic(err)
	}
	defer c.Close(ctx)

	call, err := c.ParseToolArgs(ctx, []byte(`{"operation":"goToDefinition","file_path":"shapes/area.go","line":12,"character":6}`))
	fmt.Println(call.Operation, call.FilePath, call.Position.Line, call.Position.Character, err)

	_, err = c.ParseToolArgs(ctx, []byte(`{"operation":"goToDefinition","file_path":"shapes/area.go","line":0,"character":6}`))
	fmt.Println(err.(*lspseam.Error).Code)
	// Output:
	// goToDefinition shapes/area.go 11 5 <nil>
	// LSP_INVALID_ARGUMENT
}

// A raw server payload becomes the seam's closed result, then text for the
// model, relative to the workspace.
func ExampleCore_Render() {
	ctx := context.Background()
	c, err := lspseam.NewCore(ctx)
	if err != nil {
		panic(err)
	}
	defer c.Close(ctx)

	raw := []byte(`[
	  {"uri":"file:///work/shapes/circle.go","range":{"start":{"line":9,"character":5},"end":{"line":9,"character":9}}},
	  {"uri":"file:///work/main.go","range":{"start":{"line":3,"character":1},"end":{"line":3,"character":5}}},
	  {"uri":"file:///work/shapes/circle.go","range":{"start":{"line":20,"character":8},"end":{"line":20,"character":12}}}
	]`)
	res, err := c.Translate(ctx, lspseam.OpReferences, raw)
	if err != nil {
		panic(err)
	}
	out, err := c.Render(ctx, res, "file:///work", lspseam.Limits{MaxLocations: 2})
	if err != nil {
		panic(err)
	}
	fmt.Println(out.Text)
	// Output:
	// shapes/circle.go:10:6
	// shapes/circle.go:21:9
	// (1 more location not shown; maxLocations is 2)
}

// A Service routes each query by the file's final extension.
func ExampleService() {
	ctx := context.Background()
	c, err := lspseam.NewCore(ctx)
	if err != nil {
		panic(err)
	}
	defer c.Close(ctx)
	s := lspseam.NewService(c)
	defer s.Close()

	dispose, err := s.RegisterProvider(ctx, lspseam.Registration{
		ID:                  "typescript",
		ExtensionToLanguage: map[string]string{".ts": "typescript"},
		Provider: lspseam.ProviderFunc(func(ctx context.Context, q lspseam.ProviderQuery) (lspseam.Result, error) {
			fmt.Println("query", q.Operation, q.FilePath, "as", q.LanguageID)
			return lspseam.Result{Kind: lspseam.KindHover, Hover: &lspseam.Hover{Contents: "function area(): number"}}, nil
		}),
	})
	if err != nil {
		panic(err)
	}
	defer dispose()

	res, err := s.Query(ctx, lspseam.QueryRequest{Operation: lspseam.OpHover, FilePath: "src/Shapes.d.TS", WorkspaceRoot: "/work"})
	fmt.Println(res.Hover.Contents, err)

	_, err = s.Query(ctx, lspseam.QueryRequest{Operation: lspseam.OpHover, FilePath: "main.rs", WorkspaceRoot: "/work"})
	fmt.Println(err.(*lspseam.Error).Code)
	// Output:
	// query hover src/Shapes.d.TS as typescript
	// function area(): number <nil>
	// LSP_UNAVAILABLE
}
