// The AskUserQuestion input the hook tests ask with: two questions of two options each, the shape
// the model's tool call has (test/fixtures/claude-hooks/permission-request.ask-user-question.json).
export const TWO_QUESTIONS = {
  questions: [
    {
      question: 'Which colour?',
      header: 'Colour',
      multiSelect: false,
      options: [
        { label: 'red', description: 'warm' },
        { label: 'blue', description: 'cool' },
      ],
    },
    {
      question: 'Which size?',
      header: 'Size',
      multiSelect: false,
      options: [
        { label: 'small', description: 'fits' },
        { label: 'large', description: 'roomy' },
      ],
    },
  ],
}
