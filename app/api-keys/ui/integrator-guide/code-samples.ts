// The copy-paste examples of the integrator page (/docs/authenticate), for this instance's origin.
// Each reads the key the caller presented from the API_KEY environment variable (in a real service:
// from the incoming request), asks for one scope and prints the status and the answer's `json`.
// tests/integration/integrator-samples.test.ts runs the curl, Node and Python ones against the real
// server (and the Go one when a Go toolchain is there), so a sample that stops working fails a test.

export type SampleLanguage = "curl" | "node" | "python" | "go";
export const SAMPLE_LANGUAGES: readonly SampleLanguage[] = ["curl", "node", "python", "go"];

/** The scope the samples ask for. */
export const SAMPLE_SCOPE = "organization:read";

function endpoint(origin: string): string {
  return `${origin}/rpc/apiKey/authenticate`;
}

function curl(origin: string): string {
  return `curl --silent --show-error --max-time 5 \\
  --request POST '${endpoint(origin)}' \\
  --header "Authorization: Bearer $API_KEY" \\
  --header 'Content-Type: application/json' \\
  --data '{"json":{"scopes":["${SAMPLE_SCOPE}"]}}' \\
  --write-out '\\n%{http_code}\\n'`;
}

function node(origin: string): string {
  return `// Node.js 18 or later (fetch is built in); save as check.mjs for the top-level await.
const response = await fetch("${endpoint(origin)}", {
  method: "POST",
  headers: { Authorization: \`Bearer \${process.env.API_KEY}\`, "Content-Type": "application/json" },
  body: JSON.stringify({ json: { scopes: ["${SAMPLE_SCOPE}"] } }),
  signal: AbortSignal.timeout(5000),
});
const { json } = await response.json();
if (response.status === 200) {
  // Serve the request for this organization only.
  console.log(response.status, json.organizationId, json.keyId, json.scopes);
} else {
  // 401/403: refuse the request. 503: try again after Retry-After seconds.
  console.log(response.status, json.code, json.message);
}`;
}

function python(origin: string): string {
  return `import json
import os
import urllib.error
import urllib.request

request = urllib.request.Request(
    "${endpoint(origin)}",
    data=json.dumps({"json": {"scopes": ["${SAMPLE_SCOPE}"]}}).encode(),
    headers={"Authorization": "Bearer " + os.environ["API_KEY"], "Content-Type": "application/json"},
    method="POST",
)
try:
    with urllib.request.urlopen(request, timeout=5) as response:
        status, answer = response.status, json.load(response)["json"]
except urllib.error.HTTPError as error:  # 4xx and 5xx arrive here
    status, answer = error.code, json.load(error)["json"]

if status == 200:
    # Serve the request for this organization only.
    print(status, answer["organizationId"], answer["keyId"], answer["scopes"])
else:
    # 401/403: refuse the request. 503: try again after Retry-After seconds.
    print(status, answer["code"], answer["message"])`;
}

function go(origin: string): string {
  return `package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"time"
)

type answer struct {
	// 200
	KeyID          string   \`json:"keyId"\`
	OrganizationID string   \`json:"organizationId"\`
	Scopes         []string \`json:"scopes"\`
	// 4xx, 5xx
	Code    string \`json:"code"\`
	Message string \`json:"message"\`
}

func main() {
	body, _ := json.Marshal(map[string]any{"json": map[string]any{"scopes": []string{"${SAMPLE_SCOPE}"}}})
	request, err := http.NewRequest(http.MethodPost, "${endpoint(origin)}", bytes.NewReader(body))
	if err != nil {
		panic(err)
	}
	request.Header.Set("Authorization", "Bearer "+os.Getenv("API_KEY"))
	request.Header.Set("Content-Type", "application/json")
	response, err := (&http.Client{Timeout: 5 * time.Second}).Do(request)
	if err != nil {
		panic(err) // KeyLedger unreachable: decide nothing about the key
	}
	defer response.Body.Close()
	var envelope struct{ JSON answer \`json:"json"\` }
	if err := json.NewDecoder(response.Body).Decode(&envelope); err != nil {
		panic(err)
	}
	if response.StatusCode == http.StatusOK {
		// Serve the request for this organization only.
		fmt.Println(response.StatusCode, envelope.JSON.OrganizationID, envelope.JSON.KeyID, envelope.JSON.Scopes)
	} else {
		// 401/403: refuse the request. 503: try again after Retry-After seconds.
		fmt.Println(response.StatusCode, envelope.JSON.Code, envelope.JSON.Message)
	}
}`;
}

const SAMPLES: Record<SampleLanguage, (origin: string) => string> = { curl, node, python, go };

/** The example in `language` for the instance at `origin` (no trailing slash). */
export function codeSample(language: SampleLanguage, origin: string): string {
  return SAMPLES[language](origin);
}
