;;; emacs_common.el --- shared pieces of the interactive Emacs drivers  -*- lexical-binding: t; -*-

;; The Emacs tests run an interactive Emacs (emacs -nw on a pseudo-terminal),
;; so that its command loop runs: keys typed, prompts answered, and the idle
;; timers clients rely on (Eglot's didChange, Flymake's checks).  A driver is
;; a list of steps; a repeating timer checks the current step's condition and,
;; once it holds, runs its action (which types keys, as a user would) and
;; moves on.  Each step is bounded by IRILINT_TEST_WAIT seconds.
;; Environment: IRILINT_TEST_FILE, IRILINT_TEST_OUT, IRILINT_TEST_WAIT (s).

(require 'cl-lib)
(require 'json)
(require 'subr-x)

(defvar irilint-test--result nil "Alist written to IRILINT_TEST_OUT.")
(defvar irilint-test--wait (string-to-number (or (getenv "IRILINT_TEST_WAIT") "30")))
(defvar irilint-test--steps nil "Remaining steps: (NAME CONDITION ACTION) lists.")
(defvar irilint-test--step-deadline nil)
(defvar irilint-test--timer nil)
(defvar irilint-test--answers nil
  "Pending answers: (PROMPT-REGEXP . KEYS); typed when a minibuffer prompt matches.")
(defvar irilint-test--buffer nil "The test document's buffer.")
(defvar irilint-test--finish-hook nil "Run before the result is written (to add details).")

(defun irilint-test-put (key value)
  (setq irilint-test--result (cons (cons key value) (assq-delete-all key irilint-test--result))))

(defun irilint-test-get (key)
  (cdr (assq key irilint-test--result)))

(defun irilint-test--write ()
  (let ((coding-system-for-write 'utf-8)
        (json-encoding-pretty-print nil))
    (with-temp-file (getenv "IRILINT_TEST_OUT")
      (insert (json-encode irilint-test--result)))))

(defun irilint-test-type (keys)
  "Queue KEYS (a `kbd' string) as if typed at the keyboard."
  (setq unread-command-events
        (append unread-command-events (listify-key-sequence (kbd keys)))))

(defun irilint-test-answer (prompt-regexp keys)
  "Type KEYS at the next minibuffer prompt matching PROMPT-REGEXP."
  (setq irilint-test--answers (append irilint-test--answers (list (cons prompt-regexp keys)))))

(defun irilint-test--on-minibuffer ()
  ;; What the user sees at each prompt, and the answer typed there.
  (let* ((prompt (minibuffer-prompt))
         (answer (cl-find-if (lambda (a) (string-match-p (car a) prompt)) irilint-test--answers))
         (candidates (and minibuffer-completion-table
                          (not (string-prefix-p "M-x" prompt))
                          (ignore-errors (all-completions "" minibuffer-completion-table
                                                          minibuffer-completion-predicate)))))
    (irilint-test-put 'prompts
                      (append (irilint-test-get 'prompts)
                              (list `((prompt . ,prompt)
                                      (candidates . ,(vconcat candidates))
                                      (default . ,(if (consp minibuffer-default)
                                                      (car minibuffer-default)
                                                    minibuffer-default))
                                      (typed . ,(cdr answer))))))
    (when answer
      (setq irilint-test--answers (delq answer irilint-test--answers))
      (irilint-test-type (cdr answer)))))

(add-hook 'minibuffer-setup-hook #'irilint-test--on-minibuffer)

(defun irilint-test-line (n)
  "Text of 0-based line N of the test buffer (lines end at LF only, as in LSP)."
  (with-current-buffer irilint-test--buffer
    (save-excursion
      (goto-char (point-min))
      (forward-line n)
      (buffer-substring-no-properties (line-beginning-position) (line-end-position)))))

(defun irilint-test-goto (pos)
  "Put point at POS in the window showing the test buffer, as a click or C-f would."
  (let ((win (get-buffer-window irilint-test--buffer)))
    (when win (select-window win))
    (set-buffer irilint-test--buffer)
    (goto-char pos)))

(defun irilint-test--finish (error-text)
  (when irilint-test--timer (cancel-timer irilint-test--timer))
  (when error-text (irilint-test-put 'error error-text))
  (ignore-errors (run-hooks 'irilint-test--finish-hook))
  (irilint-test--write)
  (when (buffer-live-p irilint-test--buffer)
    (with-current-buffer irilint-test--buffer (set-buffer-modified-p nil)))
  (kill-emacs 0))

(defun irilint-test--tick ()
  (condition-case err
      (let ((step (car irilint-test--steps)))
        (cond
         ((null step) (irilint-test-put 'ok t) (irilint-test--finish nil))
         ((with-current-buffer (or irilint-test--buffer (current-buffer)) (funcall (nth 1 step)))
          (irilint-test-put 'steps (append (irilint-test-get 'steps) (list (nth 0 step))))
          (setq irilint-test--steps (cdr irilint-test--steps))
          (setq irilint-test--step-deadline (+ (float-time) irilint-test--wait))
          (with-current-buffer (or irilint-test--buffer (current-buffer)) (funcall (nth 2 step))))
         ((> (float-time) irilint-test--step-deadline)
          (irilint-test--finish (format "step %S: its condition did not hold within %ss"
                                        (nth 0 step) irilint-test--wait)))))
    (error (irilint-test--finish (format "%S" err)))))

(defun irilint-test-run (steps)
  "Run STEPS, a list of (NAME CONDITION ACTION), from the command loop."
  (setq irilint-test--steps steps
        irilint-test--step-deadline (+ (float-time) irilint-test--wait))
  (setq irilint-test--timer (run-with-timer 0.5 0.1 #'irilint-test--tick)))

(defun irilint-test-open ()
  "Visit IRILINT_TEST_FILE."
  (find-file (getenv "IRILINT_TEST_FILE"))
  (setq irilint-test--buffer (current-buffer))
  (irilint-test-put 'major_mode (symbol-name major-mode))
  (irilint-test-put 'emacs_version emacs-version))

;; What both clients' drivers share: each defines `irilint-test--diags'
;; (its diagnostics as alists), `irilint-test--code-action' and what counts
;; a publish; the two-fix scenario is the same for both.

(defun irilint-test--find (code)
  (cl-find-if (lambda (d) (equal (cdr (assq 'code d)) code)) (irilint-test--diags)))

(defvar irilint-test--problem-line nil "0-based line of the diagnostics.")
(defvar irilint-test--publishes 0 "publishDiagnostics notifications the client has handled.")
(defvar irilint-test--mark 0 "`irilint-test--publishes' when the last fix was applied.")

(defun irilint-test--new-publish-p ()
  (> irilint-test--publishes irilint-test--mark))

(defun irilint-test-two-fixes (&optional on-diagnostics)
  "The steps from the first diagnostics to the second fix checked: the
IRI401 fix (\"Enc...\") and then the IRI101 fix (\"Rem...\") taken through
the client's code-action command.  ON-DIAGNOSTICS runs when the
diagnostics first show."
  (list
   (list "diagnostics" (lambda () (and (irilint-test--find "IRI401") (irilint-test--find "IRI101")))
         (lambda ()
           (irilint-test-put 'diagnostics (vconcat (irilint-test--diags)))
           (setq irilint-test--problem-line (cdr (assq 'line (irilint-test--find "IRI401"))))
           (irilint-test-put 'lines_before
                             (vconcat (cl-loop for n from 0 to irilint-test--problem-line
                                               collect (irilint-test-line n))))
           (when on-diagnostics (funcall on-diagnostics))
           (irilint-test--code-action "IRI401" "Enc TAB RET")))
   (list "first fix applied" (lambda () (string-match-p "100%25" (irilint-test-line irilint-test--problem-line)))
         (lambda ()
           (setq irilint-test--mark irilint-test--publishes)
           (irilint-test-put 'line_after_fix (irilint-test-line irilint-test--problem-line))))
   ;; The client sends the didChange; the server's answer reaches Flymake.
   (list "first fix checked" (lambda () (and (irilint-test--new-publish-p)
                                             (not (irilint-test--find "IRI401")) (irilint-test--find "IRI101")))
         (lambda ()
           (irilint-test-put 'diagnostics_after_fix (vconcat (irilint-test--diags)))
           (irilint-test--code-action "IRI101" "Rem TAB RET")))
   (list "second fix applied"
         (lambda () (not (string-match-p "\u202E" (irilint-test-line irilint-test--problem-line))))
         (lambda ()
           (setq irilint-test--mark irilint-test--publishes)
           (irilint-test-put 'line_after_second_fix (irilint-test-line irilint-test--problem-line))
           (irilint-test-put 'modified (and (buffer-modified-p irilint-test--buffer) t))))
   (list "second fix checked" (lambda () (and (irilint-test--new-publish-p)
                                              (not (irilint-test--find "IRI401"))
                                              (not (irilint-test--find "IRI101"))))
         (lambda ()
           (irilint-test-put 'diagnostics_after_second_fix (vconcat (irilint-test--diags)))))))

(provide 'emacs_common)
;;; emacs_common.el ends here
