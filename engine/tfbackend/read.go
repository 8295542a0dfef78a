package tfbackend

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"strings"

	"github.com/jackc/pgx/v5"
)

// maxState bounds the size of a state read, against a wrong address
// that streams without end.
const maxState = 1 << 30

// ReadState reads the state of a workspace ("default", or "" for it) as
// Terraform reads it for terraform_remote_state: without taking the lock.
// It returns ErrNoState (wrapped, with where it looked) when there is
// none, as Terraform finds none in an empty object or row.
func (b *Backend) ReadState(ctx context.Context, workspace string) ([]byte, error) {
	if workspace == "" {
		workspace = "default"
	}
	if workspace != "default" && !b.Workspaces() {
		return nil, &ArgError{Arg: "workspace", Summary: "Workspaces not supported", Detail: fmt.Sprintf("the %s backend keeps the default workspace only", b.Type)}
	}
	var data []byte
	var err error
	switch b.Type {
	case "local":
		data, err = os.ReadFile(b.localPath(workspace))
		if errors.Is(err, fs.ErrNotExist) {
			err = nil
		}
	case "http":
		data, err = b.readHTTP(ctx)
	case "pg":
		data, err = b.readPG(ctx, workspace)
	default:
		data, err = b.readObject(ctx, workspace)
	}
	if err != nil {
		return nil, fmt.Errorf("reading the state of workspace %q from %s: %w", workspace, b.Where(workspace), err)
	}
	if len(data) == 0 {
		return nil, fmt.Errorf("%w %q in %s", ErrNoState, workspace, b.Where(workspace))
	}
	return data, nil
}

// readHTTP GETs the address, with basic authentication when a username
// or password is given; 404 and 204 mean no state, as in Terraform.
func (b *Backend) readHTTP(ctx context.Context) ([]byte, error) {
	u, err := url.Parse(b.s("address"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, &ArgError{Arg: "address", Summary: "Invalid address", Detail: "address must be an http:// or https:// URL"}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	if user, pw := b.s("username"), b.s("password"); user != "" || pw != "" {
		req.SetBasicAuth(user, pw)
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	// skip_cert_verification is Terraform's, for servers with a certificate
	// of their own.
	tr.TLSClientConfig = &tls.Config{InsecureSkipVerify: b.on("skip_cert_verification")}
	if pem := b.s("client_ca_certificate_pem"); pem != "" {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM([]byte(pem)) {
			return nil, &ArgError{Arg: "client_ca_certificate_pem", Summary: "Invalid certificate", Detail: "it holds no PEM certificate"}
		}
		tr.TLSClientConfig.RootCAs = pool
	}
	client := &http.Client{Transport: tr}
	resp, err := client.Do(req)
	if err != nil {
		return nil, errors.New(strings.ReplaceAll(err.Error(), u.String(), redactURL(u.String())))
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK:
		return io.ReadAll(io.LimitReader(resp.Body, maxState))
	case http.StatusNotFound, http.StatusNoContent:
		return nil, nil
	case http.StatusUnauthorized, http.StatusForbidden:
		return nil, fmt.Errorf("the server refused the credentials (%s): check username and password (TF_HTTP_USERNAME, TF_HTTP_PASSWORD)", resp.Status)
	}
	return nil, fmt.Errorf("the server answered %s", resp.Status)
}

// redactURL hides a URL's password.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.User == nil {
		return s
	}
	return u.Redacted()
}

// readPG reads the row of the workspace from Terraform's table.
func (b *Backend) readPG(ctx context.Context, workspace string) ([]byte, error) {
	conn, err := pgx.Connect(ctx, b.s("conn_str"))
	if err != nil {
		return nil, pgError(err, b.s("conn_str"))
	}
	defer conn.Close(context.WithoutCancel(ctx))
	var data []byte
	q := fmt.Sprintf(`SELECT data FROM %s WHERE name = $1`, pgx.Identifier{b.schema(), b.table()}.Sanitize())
	err = conn.QueryRow(ctx, q, workspace).Scan(&data)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	return data, pgError(err, b.s("conn_str"))
}

// pgError keeps a connection string's password out of an error.
func pgError(err error, conn string) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if u, perr := url.Parse(conn); perr == nil && u.User != nil {
		if pw, ok := u.User.Password(); ok && pw != "" {
			msg = strings.ReplaceAll(msg, pw, "xxxxx")
		}
	}
	return errors.New(msg)
}
