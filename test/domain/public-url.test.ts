import { describe, expect, it } from "vitest";
import { publicUrlProblem } from "../../worker/lib/public-url";

const PRIVATE = "must not point at a private, loopback or link-local address";
const NOT_URL = "must be an absolute http(s) URL";

describe("publicUrlProblem", () => {
  it("accepts public http(s) hosts, names and addresses", () => {
    for (const url of [
      "https://example.com/hook",
      "http://hooks.example.org:8080/a?b=c",
      "https://93.184.216.34/x",
      "https://[2606:4700::1111]/x",
      "https://[::ffff:93.184.216.34]/x",
      "https://172.32.0.1/x",
      "https://100.128.0.1/x",
    ]) {
      expect(publicUrlProblem(url, false), url).toBeNull();
    }
  });

  it("refuses what is not an absolute http(s) URL", () => {
    for (const url of [
      "",
      "example.com/x",
      "/x",
      "ftp://example.com",
      "javascript:alert(1)",
      "file:///etc/passwd",
    ]) {
      expect(publicUrlProblem(url, false), url).toBe(NOT_URL);
    }
  });

  it("refuses private, loopback, link-local and reserved addresses in every spelling", () => {
    for (const url of [
      "http://127.0.0.1/",
      "http://127.1/",
      "http://2130706433/",
      "http://0x7f.0.0.1/",
      "http://0.0.0.0/",
      "http://10.0.0.1/",
      "http://100.64.1.1/",
      "http://169.254.169.254/",
      "http://172.31.255.255/",
      "http://192.168.0.1/",
      "http://224.0.0.1/",
      "http://255.255.255.255/",
      "http://[::1]/",
      "http://[::]/",
      "http://[0:0:0:0:0:0:0:1]/",
      "http://[::ffff:127.0.0.1]/",
      "http://[::ffff:192.168.1.1]/",
      "http://[64:ff9b::a00:1]/",
      "http://[fc00::1]/",
      "http://[fe80::1]/",
      "http://[ff02::1]/",
      "http://localhost/",
      "http://LOCALHOST./",
      "http://api.localhost/",
      "http://nas.local/",
      "http://db.internal/",
      "http://router/",
    ]) {
      expect(publicUrlProblem(url, false), url).toBe(PRIVATE);
    }
  });

  it("lets local development reach loopback only", () => {
    for (const url of ["http://127.0.0.1:4000/", "http://localhost:4000/", "http://[::1]:4000/"]) {
      expect(publicUrlProblem(url, true), url).toBeNull();
    }
    for (const url of ["http://10.0.0.1/", "http://192.168.1.1/", "http://169.254.169.254/"]) {
      expect(publicUrlProblem(url, true), url).toBe(PRIVATE);
    }
  });
});
