// How many words name a command: `git checkout main` is named by `git checkout`, `npm run dev` by
// `npm run dev`. The longest table key that is a prefix of the command's words wins; a command not
// in the table is named by its first word. Keys may hold a flag that selects the command
// (`python -m`, `systemctl --user`); any other flag where a naming word is expected means the
// command cannot be generalised.
//
// Global flags before the subcommand (`git -C repo status`, `docker compose -f x.yml up`): the
// saved pattern is matched against the text of later commands, so it must be a prefix of this
// command's own words. `git status *` would not match `git -C repo status`, and `git -C *` would
// allow every git subcommand. So such a command has no prefix ([]) and "always" saves it exactly.

/** Words naming a command, by the space-joined prefix that selects the entry. */
export const ARITY: Readonly<Record<string, number>> = {
  // Named by their first word (the default; listed where a subcommand could be expected).
  awk: 1, cat: 1, cd: 1, chmod: 1, chown: 1, cmake: 1, cp: 1, curl: 1, diff: 1, du: 1, echo: 1,
  eslint: 1, find: 1, grep: 1, head: 1, jest: 1, journalctl: 1, jq: 1, ls: 1, mkdir: 1, mv: 1,
  mypy: 1, pacman: 1, prettier: 1, pwd: 1, pytest: 1, rg: 1, rsync: 1, scp: 1, sed: 1, sort: 1,
  ssh: 1, tail: 1, tar: 1, touch: 1, tox: 1, tree: 1, tsc: 1, wc: 1, wget: 1,

  // Version control and forges.
  git: 2, // git checkout main
  "git bisect": 3, // git bisect start
  "git config": 3, // git config user.name "Ann"
  "git lfs": 3, // git lfs pull
  "git notes": 3, // git notes add -m x
  "git remote": 3, // git remote add origin url
  "git sparse-checkout": 3, // git sparse-checkout set dir
  "git stash": 3, // git stash pop
  "git submodule": 3, // git submodule update --init
  "git worktree": 3, // git worktree add ../wt
  gh: 3, // gh pr list
  glab: 3, // glab mr list

  // JavaScript and TypeScript.
  npm: 2, // npm install
  "npm cache": 3, // npm cache clean --force
  "npm config": 3, // npm config get registry
  "npm exec": 3, // npm exec vite
  "npm init": 3, // npm init vite
  "npm run": 3, // npm run dev
  "npm run-script": 3, // npm run-script build
  npx: 2, // npx prettier --write .
  pnpm: 2, // pnpm install
  "pnpm dlx": 3, // pnpm dlx create-vite
  "pnpm exec": 3, // pnpm exec tsc
  "pnpm run": 3, // pnpm run build
  pnpx: 2, // pnpx vite
  yarn: 2, // yarn add react
  "yarn dlx": 3, // yarn dlx create-vite
  "yarn run": 3, // yarn run dev
  "yarn workspace": 4, // yarn workspace web build
  bun: 2, // bun test
  "bun pm": 3, // bun pm ls
  "bun run": 3, // bun run dev
  "bun x": 3, // bun x tsc
  bunx: 2, // bunx tsc --noEmit
  deno: 2, // deno fmt
  "deno task": 3, // deno task dev
  node: 2, // node server.js
  nx: 2, // nx build web
  "nx run": 3, // nx run web:build
  turbo: 2, // turbo build
  "turbo run": 3, // turbo run lint
  lerna: 2, // lerna publish
  "lerna run": 3, // lerna run test
  ng: 2, // ng serve
  vite: 2, // vite build
  next: 2, // next dev
  nuxt: 2, // nuxt build
  astro: 2, // astro check
  vitest: 2, // vitest run
  playwright: 2, // playwright test
  cypress: 2, // cypress run
  prisma: 2, // prisma generate
  "prisma db": 3, // prisma db push
  "prisma migrate": 3, // prisma migrate dev
  "drizzle-kit": 2, // drizzle-kit generate

  // Python.
  python: 2, // python script.py
  "python -m": 3, // python -m pytest tests
  python3: 2, // python3 script.py
  "python3 -m": 3, // python3 -m venv .venv
  pip: 2, // pip install requests
  pip3: 2, // pip3 install requests
  pipx: 2, // pipx install ruff
  "pipx run": 3, // pipx run black .
  poetry: 2, // poetry add requests
  "poetry run": 3, // poetry run pytest
  pipenv: 2, // pipenv install flask
  "pipenv run": 3, // pipenv run pytest
  uv: 2, // uv sync
  "uv pip": 3, // uv pip install x
  "uv run": 3, // uv run pytest
  "uv tool": 3, // uv tool install ruff
  uvx: 2, // uvx ruff check
  pdm: 2, // pdm install
  hatch: 2, // hatch build
  conda: 2, // conda install numpy
  "conda env": 3, // conda env create -f env.yml
  mamba: 2, // mamba install numpy
  ruff: 2, // ruff check .

  // Other languages and build tools.
  ruby: 2, // ruby script.rb
  perl: 2, // perl script.pl
  php: 2, // php script.php
  "php artisan": 3, // php artisan migrate
  gem: 2, // gem install rails
  bundle: 2, // bundle install
  "bundle exec": 3, // bundle exec rspec
  rails: 2, // rails server
  rake: 2, // rake db:migrate
  composer: 2, // composer require laravel/framework
  go: 2, // go test ./...
  "go mod": 3, // go mod tidy
  "go tool": 3, // go tool pprof cpu.out
  "go work": 3, // go work sync
  cargo: 2, // cargo build --release
  rustup: 2, // rustup update
  "rustup component": 3, // rustup component add clippy
  "rustup target": 3, // rustup target add wasm32-unknown-unknown
  "rustup toolchain": 3, // rustup toolchain install nightly
  dotnet: 2, // dotnet build
  "dotnet tool": 3, // dotnet tool install -g x
  mvn: 2, // mvn package
  "./mvnw": 2, // ./mvnw test
  gradle: 2, // gradle build
  "./gradlew": 2, // ./gradlew assemble
  sbt: 2, // sbt compile
  mix: 2, // mix test
  stack: 2, // stack build
  cabal: 2, // cabal build
  zig: 2, // zig build
  swift: 2, // swift build
  "swift package": 3, // swift package resolve
  flutter: 2, // flutter run
  dart: 2, // dart analyze
  bazel: 2, // bazel build //...
  make: 2, // make test
  just: 2, // just lint
  task: 2, // task build

  // Containers, clusters and infrastructure.
  docker: 2, // docker run nginx
  "docker builder": 3, // docker builder prune
  "docker buildx": 3, // docker buildx build .
  "docker compose": 3, // docker compose up -d
  "docker container": 3, // docker container ls
  "docker context": 3, // docker context use remote
  "docker image": 3, // docker image prune
  "docker network": 3, // docker network inspect bridge
  "docker system": 3, // docker system df
  "docker volume": 3, // docker volume ls
  "docker-compose": 2, // docker-compose up -d
  podman: 2, // podman run alpine
  "podman container": 3, // podman container ls
  "podman image": 3, // podman image prune
  "podman volume": 3, // podman volume ls
  kubectl: 2, // kubectl get pods
  "kubectl auth": 3, // kubectl auth can-i get pods
  "kubectl config": 3, // kubectl config use-context dev
  "kubectl rollout": 3, // kubectl rollout restart deploy/api
  helm: 2, // helm install chart
  "helm repo": 3, // helm repo add bitnami url
  minikube: 2, // minikube start
  kind: 2, // kind get clusters
  "kind create": 3, // kind create cluster
  "kind delete": 3, // kind delete cluster
  k3d: 3, // k3d cluster create dev
  skaffold: 2, // skaffold dev
  terraform: 2, // terraform plan
  "terraform state": 3, // terraform state list
  "terraform workspace": 3, // terraform workspace select prod
  tofu: 2, // tofu plan
  pulumi: 2, // pulumi up
  "pulumi config": 3, // pulumi config set key value
  "pulumi stack": 3, // pulumi stack select dev
  vagrant: 2, // vagrant up
  vault: 2, // vault login
  "vault kv": 3, // vault kv get secret/api
  aws: 3, // aws s3 ls s3://bucket
  az: 3, // az group list
  "az storage": 4, // az storage blob list
  gcloud: 3, // gcloud config set project x
  "gcloud compute": 4, // gcloud compute instances list
  "gcloud container": 4, // gcloud container clusters list
  doctl: 3, // doctl compute droplet list
  eksctl: 3, // eksctl get clusters
  argocd: 3, // argocd app sync web
  firebase: 2, // firebase deploy
  vercel: 2, // vercel deploy
  netlify: 2, // netlify deploy
  heroku: 2, // heroku logs
  fly: 2, // fly deploy
  flyctl: 2, // flyctl deploy
  wrangler: 2, // wrangler deploy
  supabase: 2, // supabase start

  // System and tools.
  brew: 2, // brew install jq
  "brew services": 3, // brew services start postgresql
  apt: 2, // apt install jq
  "apt-get": 2, // apt-get install jq
  dnf: 2, // dnf install jq
  yum: 2, // yum install jq
  apk: 2, // apk add jq
  snap: 2, // snap install code
  flatpak: 2, // flatpak install app
  nix: 2, // nix build
  systemctl: 2, // systemctl restart nginx
  "systemctl --user": 3, // systemctl --user restart app
  service: 3, // service nginx restart
  launchctl: 2, // launchctl list
  ip: 3, // ip addr show
  ufw: 2, // ufw allow 22
  openssl: 2, // openssl x509 -in cert.pem
  tmux: 2, // tmux new -s dev
  nvm: 2, // nvm use 20
  fnm: 2, // fnm use 20
  volta: 2, // volta install node
  pyenv: 2, // pyenv install 3.12
  rbenv: 2, // rbenv install 3.3.0
  asdf: 2, // asdf install
  "asdf plugin": 3, // asdf plugin add nodejs
  mise: 2, // mise install
  direnv: 2, // direnv allow
  "redis-cli": 2, // redis-cli ping
};

const LONGEST_KEY = Math.max(...Object.keys(ARITY).map((key) => key.split(" ").length));

/**
 * The words that name the command (a prefix of argv), or [] when it cannot be generalised: no
 * words, fewer words than the table asks for (`git`, `npm run`), a flag where a naming word is
 * expected (`git -C repo status`), or a naming word that is not a plain literal (`git $CMD`).
 */
export function commandPrefix(argv: readonly string[]): string[] {
  const { arity, keyLength } = lookup(argv);
  if (argv.length < arity) return [];
  const prefix = argv.slice(0, arity);
  if (prefix.some((word, i) => !isPlainWord(word) || (i >= keyLength && word.startsWith("-")))) return [];
  return prefix;
}

function lookup(argv: readonly string[]): { arity: number; keyLength: number } {
  for (let length = Math.min(argv.length, LONGEST_KEY); length > 0; length--) {
    const key = argv.slice(0, length).join(" ");
    // hasOwn: a command named `constructor` must not find Object.prototype's.
    if (Object.hasOwn(ARITY, key)) return { arity: ARITY[key]!, keyLength: length };
  }
  return { arity: 1, keyLength: 1 };
}

// A naming word ends up in a wildcard pattern: it must not hold `*`, an escape, an expansion or
// whitespace (which would blur word boundaries).
function isPlainWord(word: string): boolean {
  return word !== "" && !/[\s*\\$`]/.test(word);
}
