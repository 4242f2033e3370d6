package toolbox

import (
	"fmt"
	"testing"
)

func TestPythonStaleImports(t *testing.T) {
	texts := map[string]string{
		"httpx/_urlparse.py":          "from ._utils import x\n",
		"httpx/_urls.py":              "import typing\nfrom ._urlparse import urlparse  # parse\nfrom ._utils import y\n",
		"httpx/__init__.py":           "from . import _urlparse\nfrom ._urls import URL\n",
		"httpx/sub/deep.py":           "from .._urlparse import a, b\nfrom ..sub import deep\n",
		"tests/models/test_whatwg.py": "from httpx._urlparse import urlparse\nimport httpx._urlparse as up\nimport httpx\n",
		"tests/new_ok.py":             "from httpx._url_parse import urlparse\n",
		"src/pkg/mod.py":              "x = 1\n",
		"src/pkg/user.py":             "from pkg import mod\nfrom pkg.mod import x\nimport pkg.modx\n",
	}
	got := fmt.Sprint(pythonStaleImports(texts, "httpx/_urlparse.py", "httpx/_url_parse.py"))
	want := fmt.Sprint([]staleImport{
		{"httpx/__init__.py", 1, "from . import _urlparse"},
		{"httpx/_urls.py", 2, "from ._urlparse import urlparse  # parse"},
		{"httpx/sub/deep.py", 1, "from .._urlparse import a, b"},
		{"tests/models/test_whatwg.py", 1, "from httpx._urlparse import urlparse"},
		{"tests/models/test_whatwg.py", 2, "import httpx._urlparse as up"},
	})
	if got != want {
		t.Errorf("pythonStaleImports =\n%s\nwant\n%s", got, want)
	}
	got = fmt.Sprint(pythonStaleImports(texts, "src/pkg/mod.py", "src/pkg/other.py"))
	want = fmt.Sprint([]staleImport{{"src/pkg/user.py", 1, "from pkg import mod"}, {"src/pkg/user.py", 2, "from pkg.mod import x"}})
	if got != want {
		t.Errorf("src layout: %s, want %s", got, want)
	}
}
